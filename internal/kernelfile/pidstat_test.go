package kernelfile

import (
	"errors"
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
			PIDStat{PID: 1234, Comm: "7zz", State: 'R', PPID: 1, PGRP: 1234, Flags: 4194304, UTime: 250, STime: 50, StartTime: 100}, false},
		{"15 (ksoftirqd/1) S 2 0 0 0 -1 69238848 0 0 0 0 7 13 0 0 20 0 1 0 5 0 0\n", true,
			PIDStat{PID: 15, Comm: "ksoftirqd/1", State: 'S', PPID: 2, PGRP: 0, Flags: 69238848, UTime: 7, STime: 13, StartTime: 5}, true},
		{"99 (weird) name)) Z 1 1 1 0 -1 0 0 0 0 0 1 2 0 0", true,
			PIDStat{PID: 99, Comm: "weird) name)", State: 'Z', PPID: 1, PGRP: 1, UTime: 1, STime: 2}, false},
		{"7 (a (b) c) S 1 7 7 0 -1 0 0 0 0 0 3 4", true,
			PIDStat{PID: 7, Comm: "a (b) c", State: 'S', PPID: 1, PGRP: 7, UTime: 3, STime: 4}, false},
		{"4321 (sh) S 1 4321 4321 0 -1 4194560 10 0 0 0 5 6 700 80 20 0 1 0 100 0 0", true,
			PIDStat{PID: 4321, Comm: "sh", State: 'S', PPID: 1, PGRP: 4321, Flags: 4194560, UTime: 5, STime: 6, CUTime: 700, CSTime: 80, StartTime: 100}, false},
		// The start time (field 22) names a process across PID reuse; one
		// that is not a count is left 0.
		{"1234 (boardbench) S 1 1234 1234 34816 1234 4194304 1 2 3 4 5 6 7 8 20 0 9 0 987654 1000 100", true,
			PIDStat{PID: 1234, Comm: "boardbench", State: 'S', PPID: 1, PGRP: 1234, Flags: 4194304, UTime: 5, STime: 6, CUTime: 7, CSTime: 8, StartTime: 987654}, false},
		{"1 (x) S 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 -5 1", true,
			PIDStat{PID: 1, Comm: "x", State: 'S', PPID: 1, PGRP: 1, Flags: 1, UTime: 1, STime: 1, CUTime: 1, CSTime: 1}, false},
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

func TestPIDStatDead(t *testing.T) {
	for state, dead := range map[byte]bool{'Z': true, 'X': true, 'S': false, 'R': false, 'D': false} {
		if got := (PIDStat{State: state}).Dead(); got != dead {
			t.Errorf("Dead(%c) = %v", state, got)
		}
	}
}

func TestReadPIDStat(t *testing.T) {
	r := fakeReader{
		"/proc/42/stat":   "42 (sleep) S 1 42 42 0 -1 4194304 1 2 3 4 5 6 7 8 20 0 1 0 555 1000 100\n",
		"/proc/self/stat": "7 (boardbench) R 1 7 7 0 -1 0 0 0 0 0 1 2 0 0 20 0 1 0 9 0 0\n",
		"/proc/43/stat":   "garbage",
	}
	if st, err := ReadPIDStat(r, 42); err != nil || st.PID != 42 || st.StartTime != 555 {
		t.Errorf("ReadPIDStat(42) = %+v, %v", st, err)
	}
	if st, err := ReadPIDStat(r, Self); err != nil || st.PID != 7 || st.Comm != "boardbench" {
		t.Errorf("ReadPIDStat(Self) = %+v, %v", st, err)
	}
	if _, err := ReadPIDStat(r, 43); !errors.Is(err, ErrMalformed) {
		t.Errorf("ReadPIDStat(malformed) = %v, want ErrMalformed", err)
	}
	if _, err := ReadPIDStat(r, 44); err == nil || errors.Is(err, ErrMalformed) {
		t.Errorf("ReadPIDStat(missing) = %v, want the read error", err)
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
