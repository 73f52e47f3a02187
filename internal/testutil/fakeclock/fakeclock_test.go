package fakeclock

import (
	"testing"
	"time"
)

// TestAdvanceFiresDueTimers: a timer fires when the clock reaches it, not
// before, with the clock's time; BlockUntil sees the pending timers.
func TestAdvanceFiresDueTimers(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		name    string
		after   time.Duration
		steps   []time.Duration
		fired   bool
		firedAt time.Time
	}{
		{"not yet", time.Second, []time.Duration{999 * time.Millisecond}, false, time.Time{}},
		{"exactly", time.Second, []time.Duration{time.Second}, true, start.Add(time.Second)},
		{"in two steps", time.Second, []time.Duration{600 * time.Millisecond, 600 * time.Millisecond}, true, start.Add(1200 * time.Millisecond)},
		{"at once", 0, nil, true, start},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := New(start)
			ch := c.After(tt.after)
			if tt.after > 0 {
				c.BlockUntil(t, 1)
			}
			for _, d := range tt.steps {
				c.Advance(d)
			}
			select {
			case got := <-ch:
				if !tt.fired || !got.Equal(tt.firedAt) {
					t.Errorf("fired at %v, want fired=%v at %v", got, tt.fired, tt.firedAt)
				}
				if c.Waiting() != 0 {
					t.Errorf("%d timers still pending", c.Waiting())
				}
			default:
				if tt.fired {
					t.Errorf("did not fire")
				}
				if c.Waiting() != 1 {
					t.Errorf("%d timers pending, want 1", c.Waiting())
				}
			}
		})
	}
}

// TestBlockUntilWaitsForAnotherGoroutine: BlockUntil returns once a
// goroutine has set its timer.
func TestBlockUntilWaitsForAnotherGoroutine(t *testing.T) {
	c := New(time.Unix(0, 0))
	done := make(chan time.Time)
	go func() { done <- <-c.After(time.Minute) }()
	c.BlockUntil(t, 1)
	if next := c.Next(); !next.Equal(time.Unix(60, 0)) {
		t.Errorf("next timer at %v", next)
	}
	c.Advance(time.Minute)
	if !c.Next().IsZero() {
		t.Errorf("a timer left at %v", c.Next())
	}
	if got := <-done; !got.Equal(time.Unix(60, 0)) {
		t.Errorf("fired at %v", got)
	}
}
