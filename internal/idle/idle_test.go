package idle

import (
	"context"
	"os"
	"testing"
	"time"

	"boardbench/internal/host"
)

func TestParseProcStat(t *testing.T) {
	cases := []struct {
		line   string
		ok     bool
		name   string
		ticks  uint64
		kernel bool
	}{
		{"1234 (7zz) R 1 1234 1234 0 -1 4194304 100 0 0 0 250 50 0 0 20 0 9 0 100 0 0", true, "7zz", 300, false},
		{"15 (ksoftirqd/1) S 2 0 0 0 -1 69238848 0 0 0 0 7 13 0 0 20 0 1 0 5 0 0", true, "ksoftirqd/1", 20, true},
		{"99 (weird) name)) S 1 1 1 0 -1 0 0 0 0 0 1 2 0 0", true, "weird) name)", 3, false},
		{"garbage", false, "", 0, false},
		{"1 (x) S 1 2", false, "", 0, false},
	}
	for _, c := range cases {
		got, ok := ParseProcStat(c.line)
		if ok != c.ok || got.name != c.name || got.ticks != c.ticks || got.kernel != c.kernel {
			t.Errorf("ParseProcStat(%q) = %+v, %v", c.line, got, ok)
		}
	}
}

func TestReason(t *testing.T) {
	l, c := 1.5, 48.0
	s := State{Load1: &l, CPUPct: &c, Top: []Process{{PID: 77, Name: "apt", CPUPct: 45}, {PID: 12, Name: "kworker/0:1", Kernel: true, CPUPct: 2}}}
	want := "load 1.50, 48.0% CPU; busiest: apt[77] 45.0%, kworker/0:1[12] (kernel) 2.0%"
	if got := s.Reason(); got != want {
		t.Errorf("Reason() = %q\nwant %q", got, want)
	}
	if (State{Quiet: true}).Reason() != "" {
		t.Error("quiet state must have no reason")
	}
}

func TestMeasureLive(t *testing.T) {
	h, err := host.New("/")
	if err != nil {
		t.Fatal(err)
	}
	// Keep one CPU busy so at least this process shows up.
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
		}
	}()
	st, err := Measure(context.Background(), h, 300*time.Millisecond)
	close(stop)
	if err != nil {
		t.Fatal(err)
	}
	if st.CPUPct == nil || st.Load1 == nil {
		t.Fatalf("state lacks figures: %+v", st)
	}
	found := false
	for _, p := range st.Top {
		if p.PID == os.Getpid() {
			found = true
		}
	}
	if !found {
		t.Errorf("the busy test process is not among the busiest: %+v", st.Top)
	}
}
