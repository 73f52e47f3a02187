package iostreams

import (
	"fmt"
	"time"
)

// Step is one step of a job whose progress a Status shows.
type Step struct {
	// Title names the step ("Memory bandwidth and latency on cpu4").
	Title string
	// Kind groups steps whose durations scale together ("7zip",
	// "memory"): a finished step corrects the estimates of the others of
	// its kind. Steps with an empty kind are never corrected.
	Kind string
	// Estimate is the step's expected duration; 0 when unknown, in which
	// case the mean of the finished steps of the same kind stands in.
	Estimate time.Duration
}

// ETA estimates the time left in a job of steps from each step's
// estimate, scaled by how long the finished steps of the same kind really
// took.
type ETA struct {
	steps   []Step
	actual  []time.Duration
	done    []bool
	skipped []bool
}

// NewETA returns an ETA for the steps.
func NewETA(steps []Step) *ETA {
	n := len(steps)
	return &ETA{steps: steps, actual: make([]time.Duration, n), done: make([]bool, n), skipped: make([]bool, n)}
}

// Len is the number of steps.
func (e *ETA) Len() int { return len(e.steps) }

// Done records that step i took d.
func (e *ETA) Done(i int, d time.Duration) {
	if i >= 0 && i < len(e.done) {
		e.done[i], e.actual[i] = true, d
	}
}

// Skip records that step i was skipped (it takes no time and says nothing
// about its kind).
func (e *ETA) Skip(i int) {
	if i >= 0 && i < len(e.done) {
		e.done[i], e.skipped[i] = true, true
	}
}

// finished reports whether step i ran to its end (and was not skipped).
func (e *ETA) finished(i int) bool { return e.done[i] && !e.skipped[i] }

// factor is actual over estimated time of the finished steps of kind with
// an estimate; 1 when none finished.
func (e *ETA) factor(kind string) float64 {
	var est, act time.Duration
	for i, s := range e.steps {
		if e.finished(i) && kind != "" && s.Kind == kind && s.Estimate > 0 {
			est += s.Estimate
			act += e.actual[i]
		}
	}
	if est <= 0 || act <= 0 {
		return 1
	}
	return float64(act) / float64(est)
}

// meanActual is the mean duration of the finished steps of kind; ok is
// false when none finished.
func (e *ETA) meanActual(kind string) (d time.Duration, ok bool) {
	var sum time.Duration
	n := 0
	for i, s := range e.steps {
		if e.finished(i) && kind != "" && s.Kind == kind {
			sum += e.actual[i]
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / time.Duration(n), true
}

// Estimate returns the expected duration of step i: its estimate scaled by
// its kind's factor, or for a step without an estimate the mean of the
// finished steps of its kind. ok is false when neither is known.
func (e *ETA) Estimate(i int) (d time.Duration, ok bool) {
	if i < 0 || i >= len(e.steps) {
		return 0, false
	}
	s := e.steps[i]
	if s.Estimate <= 0 {
		return e.meanActual(s.Kind)
	}
	return time.Duration(float64(s.Estimate) * e.factor(s.Kind)), true
}

// Remaining returns the time left when step cur has run for elapsed: what
// is left of cur (never negative) plus the estimates of the steps after it
// that have not finished. ok is false when a step still to run has no
// estimate yet.
func (e *ETA) Remaining(cur int, elapsed time.Duration) (left time.Duration, ok bool) {
	for i := range e.steps {
		if e.done[i] || i < cur {
			continue
		}
		est, known := e.Estimate(i)
		if !known {
			return 0, false
		}
		if i == cur {
			est = max(est-elapsed, 0)
		}
		left += est
	}
	return left, true
}

// FormatLeft writes a time left as people say it: "about 40 s left",
// "about 3 min left", "about 1 h 20 min left"; a job past its estimate is
// "taking longer than estimated".
func FormatLeft(d time.Duration) string {
	s := max(1, int(d.Round(time.Second).Seconds()))
	switch {
	case d <= 0:
		return "taking longer than estimated"
	case s < 60:
		return fmt.Sprintf("about %d s left", s)
	case s < 3600:
		return fmt.Sprintf("about %d min left", max(1, int(d.Round(time.Minute).Minutes())))
	default:
		m := int(d.Round(time.Minute).Minutes())
		return fmt.Sprintf("about %d h %d min left", m/60, m%60)
	}
}
