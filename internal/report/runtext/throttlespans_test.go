package runtext

import (
	"testing"

	"boardbench/internal/result"
)

func TestThrottleSpansText(t *testing.T) {
	v := func(x float64) *float64 { return &x }
	tests := []struct {
		spans []result.ThrottleSpan
		want  string
	}{
		{[]result.ThrottleSpan{{StartS: 900, EndS: v(1200), Signals: []string{"firmware clock", "get_throttled"}, LowestFirmwareMHz: v(700)},
			{StartS: 1300, Signals: []string{"cpufreq clock"}, LowestClockMHz: v(1200)}},
			"900–1200 s (firmware clock, get_throttled; firmware down to 700 MHz); 1300 s–end (cpufreq clock; cpufreq down to 1200 MHz)"},
		{[]result.ThrottleSpan{{StartS: 1}, {StartS: 2}, {StartS: 3}, {StartS: 4}, {StartS: 5}, {StartS: 6}, {StartS: 7}, {StartS: 8}},
			"1 s–end (); 2 s–end (); 3 s–end (); 4 s–end (); 5 s–end (); 6 s–end (); and 2 more"},
	}
	for _, tt := range tests {
		if got := throttleSpansText(tt.spans); got != tt.want {
			t.Errorf("got  %q\nwant %q", got, tt.want)
		}
	}
}
