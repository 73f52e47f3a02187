package stats

import (
	"math"
	"testing"
)

func TestSummarize(t *testing.T) {
	cases := []struct {
		name             string
		in               []float64
		median, min, max float64
		stddev           float64
	}{
		{"odd", []float64{3, 1, 2}, 2, 1, 3, 1},
		{"even", []float64{4, 1, 3, 2}, 2.5, 1, 4, 1.2909944},
		{"single", []float64{7}, 7, 7, 7, 0},
		{"nan dropped", []float64{1, math.NaN(), 3}, 2, 1, 3, 1.4142136},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := Summarize(c.in)
			if s.Median != c.median || s.Min != c.min || s.Max != c.max {
				t.Errorf("median/min/max = %v/%v/%v, want %v/%v/%v", s.Median, s.Min, s.Max, c.median, c.min, c.max)
			}
			if math.Abs(s.StdDev-c.stddev) > 1e-6 {
				t.Errorf("stddev = %v, want %v", s.StdDev, c.stddev)
			}
		})
	}
	if s := Summarize(nil); s.N != 0 || s.Median != 0 {
		t.Errorf("empty: %+v", s)
	}
}

func TestDeviationPct(t *testing.T) {
	if d := DeviationPct(2348, 2400); math.Abs(d-(-2.1666667)) > 1e-6 {
		t.Errorf("got %v", d)
	}
	if !math.IsNaN(DeviationPct(1, 0)) {
		t.Error("want NaN for zero reference")
	}
}
