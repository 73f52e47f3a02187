package power

import "time"

// Clock is the time a Meter and its polled sources keep: when readings are
// taken and stamped, how long an idle baseline lasts, and what "now" is
// for a reading's age and a window's end. Tests pass a fake one
// (internal/testutil/fakeclock) to make the timing of readings exact;
// nil means the system's clock.
type Clock interface {
	Now() time.Time
	// After returns a channel that receives the time once d has passed.
	After(d time.Duration) <-chan time.Time
}

// systemClock is the real time.
type systemClock struct{}

func (systemClock) Now() time.Time                         { return time.Now() }
func (systemClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// orSystem returns c, or the system's clock when c is nil.
func orSystem(c Clock) Clock {
	if c == nil {
		return systemClock{}
	}
	return c
}

// clocked is a source whose readings are taken by a clock.
type clocked interface {
	setClock(Clock)
}
