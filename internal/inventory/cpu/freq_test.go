package cpu

import (
	"boardbench/internal/kernelfile"
	"reflect"
	"testing"
)

func TestParseFrequenciesKHz(t *testing.T) {
	tests := []struct {
		in      string
		want    []int64
		wantErr bool
	}{
		{"408000 600000 816000 \n", []int64{408000, 600000, 816000}, false},
		{"1800000 408000 408000", []int64{408000, 1800000}, false},
		{"", []int64{}, false},
		{"408000 fast", nil, true},
		{"0", nil, true},
		{"-408000", nil, true},
	}
	for _, tt := range tests {
		got, err := ParseFrequenciesKHz(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("ParseFrequenciesKHz(%q) error = %v, wantErr %v", tt.in, err, tt.wantErr)
			continue
		}
		if !tt.wantErr && !reflect.DeepEqual(got, tt.want) {
			t.Errorf("ParseFrequenciesKHz(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func TestFrequenciesFromTimeInState(t *testing.T) {
	states := []kernelfile.StateTime{{KHz: 408000, Ticks: 1200}, {KHz: 600000, Ticks: 30}, {KHz: 1800000}, {KHz: 408000, Ticks: 5}}
	if f := FrequenciesFromTimeInState(states); !reflect.DeepEqual(f, []int64{408000, 600000, 1800000}) {
		t.Errorf("FrequenciesFromTimeInState = %v", f)
	}
}

func TestParseKHz(t *testing.T) {
	if v, err := ParseKHz(" 1800000\n"); err != nil || v != 1800000 || KHzToMHz(v) != 1800 {
		t.Errorf("ParseKHz = %v, %v", v, err)
	}
	for _, bad := range []string{"<unknown>", "", "0", "-5"} {
		if _, err := ParseKHz(bad); err == nil {
			t.Errorf("ParseKHz(%q) accepted", bad)
		}
	}
}

// FuzzParseFrequencies feeds junk to every cpufreq value parser: none may
// panic, and accepted frequency lists are sorted, unique and positive.
func FuzzParseFrequencies(f *testing.F) {
	for _, s := range []string{"408000 600000 816000 \n", "408000 12\n600000 3\n", "<unknown>", "32K", "\x00\x01", "9223372036854775807 1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if l, err := ParseFrequenciesKHz(s); err == nil {
			for i, v := range l {
				if v <= 0 || i > 0 && v <= l[i-1] {
					t.Fatalf("ParseFrequenciesKHz(%q) = %v", s, l)
				}
			}
		}
		_, _ = ParseKHz(s)
	})
}
