package kernelfile

import (
	"fmt"
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

// TestParseTimeInStateBounded: the first limit frequencies are kept, the
// valid lines after them counted, bad lines counted apart.
func TestParseTimeInStateBounded(t *testing.T) {
	data := []byte("100 1\n200 2\nbogus\n300 3\n400 4\n\n500 5")
	for _, c := range []struct {
		limit, kept, bad, dropped int
	}{{10, 5, 1, 0}, {5, 5, 1, 0}, {2, 2, 1, 3}, {0, 0, 1, 5}} {
		states, bad, dropped := ParseTimeInStateBounded(data, c.limit)
		if len(states) != c.kept || bad != c.bad || dropped != c.dropped {
			t.Errorf("limit %d: %d kept, %d bad, %d dropped; want %d, %d, %d", c.limit, len(states), bad, dropped, c.kept, c.bad, c.dropped)
		}
		for i, s := range states {
			if s.KHz != int64(100*(i+1)) {
				t.Errorf("limit %d: state %d is %d kHz, want the file's order", c.limit, i, s.KHz)
			}
		}
	}
	var b []byte
	for k := range 250_000 {
		b = append(b, []byte(fmt.Sprintf("%d 1\n", 1000+k))...)
	}
	if states, _ := ParseTimeInState(b); len(states) != MaxTimeInStates {
		t.Errorf("250,000 lines: %d states kept, want %d", len(states), MaxTimeInStates)
	}
}
