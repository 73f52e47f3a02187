package kernelfile

import (
	"maps"
	"testing"
)

func TestParseMeminfo(t *testing.T) {
	tests := []struct {
		in   string
		want map[string]int64
	}{
		{"MemTotal:        1000 kB\nHugePages_Total:       7\nBad line\nX: 12 MB\nY: -1 kB\nZ: 99999999999999999999 kB\n",
			map[string]int64{"MemTotal": 1024000, "HugePages_Total": 7}},
		{"SwapTotal:  2 kB\nSwapFree:  1 kB\n: 5 kB\nW: 1 kB extra\nV: 9007199254740992 kB\n",
			map[string]int64{"SwapTotal": 2048, "SwapFree": 1024}},
		{"", map[string]int64{}},
	}
	for _, tt := range tests {
		if got := ParseMeminfo([]byte(tt.in)); !maps.Equal(got, tt.want) {
			t.Errorf("ParseMeminfo(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

func FuzzParseMeminfo(f *testing.F) {
	f.Add([]byte("MemTotal:        3884076 kB\nHugePages_Total:       0\n"))
	f.Add([]byte("MemTotal: 9223372036854775807 kB\nX:\n:\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for k, v := range ParseMeminfo(data) {
			if v < 0 || k == "" {
				t.Errorf("%q = %d", k, v)
			}
		}
	})
}

func TestParseVMStat(t *testing.T) {
	data := []byte("nr_free_pages 1234\npswpin 12\npswpout 34\nbroken\nx y\npgfault -1\n")
	tests := []struct {
		names []string
		want  map[string]uint64
	}{
		{[]string{"pswpin", "pswpout", "absent"}, map[string]uint64{"pswpin": 12, "pswpout": 34}},
		{nil, map[string]uint64{"nr_free_pages": 1234, "pswpin": 12, "pswpout": 34}},
	}
	for _, tt := range tests {
		if got := ParseVMStat(data, tt.names...); !maps.Equal(got, tt.want) {
			t.Errorf("ParseVMStat(%v) = %v, want %v", tt.names, got, tt.want)
		}
	}
}

func FuzzParseVMStat(f *testing.F) {
	f.Add([]byte("pswpin 12\npswpout 34\n"), "pswpin")
	f.Fuzz(func(t *testing.T, data []byte, name string) {
		for k := range ParseVMStat(data, name) {
			if k != name {
				t.Errorf("ParseVMStat(%q, %q) returned %q", data, name, k)
			}
		}
	})
}
