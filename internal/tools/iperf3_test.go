package tools

import "testing"

func TestParseIperf3Version(t *testing.T) {
	tests := []struct {
		in, want string
		ok       bool
	}{
		{"iperf 3.12 (cJSON 1.7.15)\nLinux vm 6.1.0 #1 SMP x86_64\n", "3.12", true},
		{"iperf 3.9 (cJSON 1.7.13)\n", "3.9", true},
		{"iperf 3.16.1\n", "3.16.1", true},
		{"iperf version 2.1.8 (12 August 2022) pthreads\n", "", false},
		{"", "", false},
	}
	for _, tt := range tests {
		got, ok := ParseIperf3Version(tt.in)
		if ok != tt.ok || got.Version != tt.want {
			t.Errorf("ParseIperf3Version(%q) = %q, %v; want %q, %v", tt.in, got.Version, ok, tt.want, tt.ok)
		}
	}
}
