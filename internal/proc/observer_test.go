package proc

import (
	"context"
	"sync"
	"testing"
	"time"
)

type recordingObserver struct {
	mu      sync.Mutex
	started []int
	exited  map[int]time.Duration
}

func (o *recordingObserver) Started(pid int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.started = append(o.started, pid)
}

func (o *recordingObserver) Exited(pid int, cpu time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.exited[pid] = cpu
}

// TestObserverSeesProgramAndItsCPUTime checks that a program started under
// an observing context is reported with its group id and, once reaped, its
// CPU time, and that one started without is not reported.
func TestObserverSeesProgramAndItsCPUTime(t *testing.T) {
	o := &recordingObserver{exited: map[int]time.Duration{}}
	ctx := WithObserver(context.Background(), o)
	h, err := Start(ctx, Spec{Argv: []string{"sh", "-c", `i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done`}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := h.Wait(); err != nil {
		t.Fatal(err)
	}
	if len(o.started) != 1 || o.started[0] != h.PID() {
		t.Fatalf("started = %v, want [%d]", o.started, h.PID())
	}
	if cpu, ok := o.exited[h.PID()]; !ok || cpu <= 0 {
		t.Errorf("exited = %v, want a positive CPU time for %d", o.exited, h.PID())
	}
	if _, _, err := Run(context.Background(), Spec{Argv: []string{"true"}}); err != nil {
		t.Fatal(err)
	}
	if len(o.started) != 1 || len(o.exited) != 1 {
		t.Errorf("a program started without the observer was reported: %v %v", o.started, o.exited)
	}
}
