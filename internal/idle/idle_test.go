package idle

import (
	"context"
	"os"
	"testing"
	"time"

	"boardbench/internal/host"
)

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
	for i, p := range st.Top {
		if p.PID == os.Getpid() {
			found = true
		}
		if p.PID <= 0 || p.Name == "" || !(p.CPUPct > 0) || p.CPUPct > 100 || (i > 0 && p.CPUPct > st.Top[i-1].CPUPct) {
			t.Errorf("process %d of the busiest: %+v", i, st.Top)
		}
	}
	// The busy test process is among the busiest unless five others took
	// at least as much CPU: on a loaded machine they may.
	if !found && len(st.Top) < 5 {
		t.Errorf("the busy test process is not among the busiest: %+v", st.Top)
	}
}
