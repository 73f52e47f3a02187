package reference

import "testing"

func TestSlowGovernor(t *testing.T) {
	for _, tc := range []struct {
		governor string
		want     bool
	}{
		{"powersave", true},
		{"conservative", true},
		{"userspace", true},
		{"ondemand", true},
		{"performance", false},
		{"schedutil", false},
		{"", false},
	} {
		if got := slowGovernor(tc.governor); got != tc.want {
			t.Errorf("slowGovernor(%q) = %v, want %v", tc.governor, got, tc.want)
		}
	}
}
