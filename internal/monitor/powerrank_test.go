package monitor

import (
	"testing"

	"boardbench/internal/inventory/sensors"
)

func TestPowerRank(t *testing.T) {
	for _, tc := range []struct {
		quantity string
		rank     int
		ok       bool
	}{
		{sensors.QuantityPower, 0, true},
		{sensors.QuantityCurrent, 1, true},
		{sensors.QuantityVoltage, 2, true},
		{sensors.QuantityEnergy, 0, false},
		{sensors.QuantityTemperature, 0, false},
		{"", 0, false},
	} {
		if rank, ok := powerRank(tc.quantity); rank != tc.rank || ok != tc.ok {
			t.Errorf("powerRank(%q) = %d, %v; want %d, %v", tc.quantity, rank, ok, tc.rank, tc.ok)
		}
	}
}
