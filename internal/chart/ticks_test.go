package chart

import (
	"slices"
	"testing"
)

// TestLinTicks: labelled ticks fall on round steps in the figure's unit
// with the decimals the step needs, at most maxLabels of them.
func TestLinTicks(t *testing.T) {
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
		for _, tk := range linTicks(tc.lo, tc.hi, nil, false) {
			if tk.label != "" {
				got = append(got, tk.label)
			}
			if tk.v < tc.lo-1e-9 || tk.v > tc.hi+1e-9 {
				t.Errorf("[%g, %g]: tick %g outside", tc.lo, tc.hi, tk.v)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("[%g, %g]: labels %q, want %q", tc.lo, tc.hi, got, tc.want)
		}
	}
}

// TestLogTicks: a log axis of latencies is labelled at 1, 2 and 5 times
// powers of ten (only the powers over many decades); one of sizes at
// powers of two in binary units.
func TestLogTicks(t *testing.T) {
	tests := []struct {
		name   string
		lo, hi float64
		base2  bool
		want   []string
	}{
		{"ns over two decades", 1.5, 180, false, []string{"2", "5", "10", "20", "50", "100"}},
		{"ns over five decades", 0.8, 90000, false, []string{"1", "10", "100", "1000", "10000"}},
		{"bytes 4 KiB to 1 MiB", 4096, 1 << 20, true, []string{"4 KiB", "16 KiB", "64 KiB", "256 KiB", "1 MiB"}},
		{"bytes 1 KiB to 1 GiB", 1024, 1 << 30, true, []string{"1 KiB", "32 KiB", "1 MiB", "32 MiB", "1 GiB"}},
	}
	for _, tc := range tests {
		var fmtf func(float64) string
		if tc.base2 {
			fmtf = bytesLabel
		}
		var got []string
		for _, tk := range logTicks(tc.lo, tc.hi, tc.base2, fmtf) {
			if tk.label != "" {
				got = append(got, tk.label)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: labels %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestRange: an axis holds its data with a margin: a flat clock at 2400 MHz
// sits in the middle, not on the floor; quantities that cannot be negative
// get no negative ticks; a zero axis starts at 0.
func TestRange(t *testing.T) {
	tests := []struct {
		name           string
		a              axis
		lo, hi         float64
		wantLo, wantHi float64
	}{
		{"flat clock", axis{}, 2400, 2400, 2250, 2550},
		{"clock that sags", axis{}, 1800, 2400, 1750, 2450},
		{"temperature", axis{}, 41.3, 78.9, 35, 85},
		{"MIPS from zero", axis{zero: true}, 511, 3009, 0, 3250},
		{"near zero", axis{}, 0.2, 9.8, 0, 11},
	}
	for _, tc := range tests {
		a := tc.a
		a.setRange(tc.lo, tc.hi)
		if a.lo != tc.wantLo || a.hi != tc.wantHi {
			t.Errorf("%s: range %g..%g, want %g..%g", tc.name, a.lo, a.hi, tc.wantLo, tc.wantHi)
		}
		if a.lo >= tc.lo || a.hi <= tc.hi {
			t.Errorf("%s: no margin around %g..%g in %g..%g", tc.name, tc.lo, tc.hi, a.lo, a.hi)
		}
		if tc.lo == tc.hi && (tc.lo-a.lo)/(a.hi-a.lo) < 0.3 {
			t.Errorf("%s: a flat line sits near the floor", tc.name)
		}
	}
}
