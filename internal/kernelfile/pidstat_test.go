package kernelfile

import (
	"strings"
	"testing"
)

func TestParsePIDStat(t *testing.T) {
	cases := []struct {
		line   string
		ok     bool
		want   PIDStat
		kernel bool
	}{
		{"1234 (7zz) R 1 1234 1234 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 9 0 100 0 0", true,
			PIDStat{PID: 1234, Comm: "7zz", State: 'R', PPID: 1, PGRP: 1234, Flags: 4194304, UTime: 250, STime: 50}, false},
		{"15 (ksoftirqd/1) S 2 0 0 0 -1 69238848 0 0 0 0 7 13 0 0 20 0 1 0 5 0 0\n", true,
			PIDStat{PID: 15, Comm: "ksoftirqd/1", State: 'S', PPID: 2, PGRP: 0, Flags: 69238848, UTime: 7, STime: 13}, true},
		{"99 (weird) name)) Z 1 1 1 0 -1 0 0 0 0 0 1 2 0 0", true,
			PIDStat{PID: 99, Comm: "weird) name)", State: 'Z', PPID: 1, PGRP: 1, UTime: 1, STime: 2}, false},
		{"7 (a (b) c) S 1 7 7 0 -1 0 0 0 0 0 3 4", true,
			PIDStat{PID: 7, Comm: "a (b) c", State: 'S', PPID: 1, PGRP: 7, UTime: 3, STime: 4}, false},
		{"4321 (sh) S 1 4321 4321 0 -1 4194560 10 0 0 0 5 6 700 80 20 0 1 0 100 0 0", true,
			PIDStat{PID: 4321, Comm: "sh", State: 'S', PPID: 1, PGRP: 4321, Flags: 4194560, UTime: 5, STime: 6, CUTime: 700, CSTime: 80}, false},
		{"garbage", false, PIDStat{}, false},
		{"1 (x) S 1 2", false, PIDStat{}, false},
		{"x (x) S 1 1 1 0 -1 0 0 0 0 0 1 2", false, PIDStat{}, false},
		{"1 (x) SS 1 1 1 0 -1 0 0 0 0 0 1 2", false, PIDStat{}, false},
		{"1 (x) S 1 1 1 0 -1 0 0 0 0 0 -1 2", false, PIDStat{}, false},
		{"1 )x( S 1 1 1 0 -1 0 0 0 0 0 1 2", false, PIDStat{}, false},
	}
	for _, c := range cases {
		got, ok := ParsePIDStat(c.line)
		if ok != c.ok || got != c.want || got.KernelThread() != c.kernel {
			t.Errorf("ParsePIDStat(%q) = %+v, %v; want %+v, %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

// FuzzParsePIDStat checks that an accepted line gives a name found in the
// line and a non-negative pid.
func FuzzParsePIDStat(f *testing.F) {
	f.Add("1234 (7zz) R 1 1234 1234 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 9 0 100 0 0")
	f.Add("99 (weird) name)) S 1 1 1 0 -1 0 0 0 0 0 1 2 0 0")
	f.Add("(()")
	f.Fuzz(func(t *testing.T, s string) {
		if p, ok := ParsePIDStat(s); ok && (p.PID < 0 || !strings.Contains(s, "("+p.Comm+")")) {
			t.Fatalf("ParsePIDStat(%q) = %+v", s, p)
		}
	})
}
