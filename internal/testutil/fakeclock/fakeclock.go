// Package fakeclock is a clock for tests that moves only when the test
// moves it: Advance fires the timers that fall due, and BlockUntil waits
// until a number of goroutines wait on the clock, so a test knows that
// the code under test has done everything it does before its next timer.
// It satisfies power.Clock.
package fakeclock

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"boardbench/internal/testutil/wait"
)

// Clock is a fake clock; create it with New.
type Clock struct {
	mu      sync.Mutex
	now     time.Time
	waiters []waiter
	changed chan struct{} // closed and replaced when waiters change
}

type waiter struct {
	at time.Time
	ch chan time.Time
}

// New returns a clock standing at start.
func New(start time.Time) *Clock {
	return &Clock{now: start, changed: make(chan struct{})}
}

// Now returns the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// After returns a channel that receives the clock's time once the clock
// has been advanced by d (at once when d <= 0).
func (c *Clock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	ch := make(chan time.Time, 1)
	if d <= 0 {
		ch <- c.now
		return ch
	}
	c.waiters = append(c.waiters, waiter{at: c.now.Add(d), ch: ch})
	c.notify()
	return ch
}

// Advance moves the clock by d and fires every timer that falls due.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	kept := c.waiters[:0]
	for _, w := range c.waiters {
		if w.at.After(c.now) {
			kept = append(kept, w)
			continue
		}
		w.ch <- c.now
	}
	c.waiters = kept
	c.notify()
}

// notify wakes BlockUntil; c.mu is held.
func (c *Clock) notify() {
	close(c.changed)
	c.changed = make(chan struct{})
}

// Next returns when the earliest pending timer falls due (the zero time
// when none is pending).
func (c *Clock) Next() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	var next time.Time
	for _, w := range c.waiters {
		if next.IsZero() || w.at.Before(next) {
			next = w.at
		}
	}
	return next
}

// Waiting returns how many timers are pending.
func (c *Clock) Waiting() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.waiters)
}

// BlockUntil waits until n timers are pending, failing the test when that
// has not happened within wait.HangGuard. Call it from the test's
// goroutine; other goroutines use WaitFor.
func (c *Clock) BlockUntil(t testing.TB, n int) {
	t.Helper()
	if err := c.WaitFor(n); err != nil {
		t.Fatal(err)
	}
}

// WaitFor waits until n timers are pending; an error after wait.HangGuard.
func (c *Clock) WaitFor(n int) error {
	guard := time.NewTimer(wait.HangGuard)
	defer guard.Stop()
	for {
		c.mu.Lock()
		got, changed := len(c.waiters), c.changed
		c.mu.Unlock()
		if got == n {
			return nil
		}
		select {
		case <-changed:
		case <-guard.C:
			return fmt.Errorf("hung: %d timers pending on the fake clock, waited for %d within %v", got, n, wait.HangGuard)
		}
	}
}
