package clockcheck

import "testing"

func TestParseFirmwareClock(t *testing.T) {
	tests := []struct {
		in     string
		want   float64
		wantOK bool
	}{
		{"frequency(48)=1500398464\n", 1500.398464, true},
		{"frequency(0)=2400002048", 2400.002048, true},
		{"frequency(48)=0", 0, false},
		{"error=1 error_msg=\"Command not registered\"", 0, false},
		{"frequency(48)=abc", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		got, ok := ParseFirmwareClock(tt.in)
		if got != tt.want || ok != tt.wantOK {
			t.Errorf("ParseFirmwareClock(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.wantOK)
		}
	}
}
