package kernelfile

import (
	"slices"
	"testing"
)

func TestParseTimeInState(t *testing.T) {
	tests := []struct {
		in   string
		want []StateTime
		bad  int
	}{
		{"408000 1200\n600000 30\n\n1800000 0\n", []StateTime{{408000, 1200}, {600000, 30}, {1800000, 0}}, 0},
		{"408000 100\nbogus line\n1800000 5\n", []StateTime{{408000, 100}, {1800000, 5}}, 1},
		{"408000", nil, 1},
		{"408000 1 2", nil, 1},
		{"x 1", nil, 1},
		{"408000 -1", nil, 1},
		{"0 5", nil, 1},
		{"", nil, 0},
	}
	for _, tt := range tests {
		got, bad := ParseTimeInState([]byte(tt.in))
		if !slices.Equal(got, tt.want) || bad != tt.bad {
			t.Errorf("ParseTimeInState(%q) = %v, %d bad; want %v, %d", tt.in, got, bad, tt.want, tt.bad)
		}
	}
}

func FuzzParseTimeInState(f *testing.F) {
	f.Add([]byte("408000 1200\n600000 30\n\n1800000 0\n"))
	f.Add([]byte("9223372036854775807 1\n-1 2\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		states, bad := ParseTimeInState(data)
		if bad < 0 {
			t.Fatalf("bad = %d", bad)
		}
		for _, s := range states {
			if s.KHz <= 0 || s.Ticks < 0 {
				t.Fatalf("ParseTimeInState(%q) gave %+v", data, s)
			}
		}
	})
}
