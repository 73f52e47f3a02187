package session

import "testing"

func TestDisturbedID(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want bool
	}{
		{"disturbed_figures", true},
		{"disturbed_runs", true},
		{"throttling", false},
		{"disturbed", false},
		{"", false},
	} {
		if got := disturbedID(tc.id); got != tc.want {
			t.Errorf("disturbedID(%q) = %v, want %v", tc.id, got, tc.want)
		}
	}
}
