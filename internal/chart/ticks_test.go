package chart

import (
	"slices"
	"testing"
)

// TestNiceTicks: labelled ticks fall on round steps with the decimals the
// step needs, about five of them.
func TestNiceTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		want   []string
	}{
		{0, 250, []string{"0", "50", "100", "150", "200", "250"}},
		{0, 2.9, []string{"0.0", "0.5", "1.0", "1.5", "2.0", "2.5"}},
		{37.2, 50.8, []string{"38", "40", "42", "44", "46", "48", "50"}},
		{0, 3760, []string{"0", "1000", "2000", "3000"}},
		{0, 0.12, []string{"0.00", "0.02", "0.04", "0.06", "0.08", "0.10", "0.12"}},
	}
	for _, tc := range tests {
		var got []string
		for _, tk := range (niceTicks{}).Ticks(tc.lo, tc.hi) {
			if tk.Label != "" {
				got = append(got, tk.Label)
			}
			if tk.Value < tc.lo-1e-9 || tk.Value > tc.hi+1e-9 {
				t.Errorf("[%g, %g]: tick %g outside", tc.lo, tc.hi, tk.Value)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("[%g, %g]: labels %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
}
