package runtext

import (
	"testing"

	"boardbench/internal/result"
)

func TestTempsLine(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	sensors := []result.Sensor{{Label: "cpu-thermal"}, {Label: "ds3231 temp1"}, {Label: "bme280 ambient"}}
	samples := []result.Sample{
		{Temps: []*float64{f(50), f(31), nil}},
		{Temps: []*float64{f(52.1), f(30.5), nil}},
		{}, // a sample without temperatures (an older result)
	}
	want := "cpu-thermal 52.1 °C, ds3231 temp1 31.0 °C, bme280 ambient unknown"
	if got := tempsLine(sensors, samples); got != want {
		t.Errorf("tempsLine = %q, want %q", got, want)
	}
	if got := tempsLine(nil, samples); got != "" {
		t.Errorf("without sensors: %q", got)
	}
}
