// Package wait lets tests wait for events instead of sleeping, and guard
// against hangs without depending on the machine's speed: the only time
// limit is HangGuard, minutes long, which tells a call that never returns
// from a slow one on a loaded machine.
package wait

import (
	"testing"
	"time"
)

// HangGuard is how long a test waits for something that must happen
// before it calls it hung. It is no speed limit: a loaded machine may take
// many seconds where an idle one takes milliseconds.
const HangGuard = 2 * time.Minute

// poll is the interval at which Until checks its condition.
const poll = 10 * time.Millisecond

// Until checks cond until it holds, failing the test with what when it
// has not held within HangGuard.
func Until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(HangGuard)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("hung: %s did not happen within %v", what, HangGuard)
		}
		time.Sleep(poll)
	}
}

// Return runs f and fails the test when it has not returned within
// HangGuard (a read blocked on a FIFO, a process never reaped). f keeps
// running on its goroutine after a failure.
func Return(t testing.TB, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(HangGuard):
		t.Fatalf("hung: %s did not return within %v", what, HangGuard)
	}
}
