package benchrun

import (
	"time"

	"boardbench/internal/session"
)

// sessionProgress shows the session's plan with the run's progress line.
type sessionProgress struct{ p *progress }

var _ session.Progress = sessionProgress{}

// Plan starts showing the phases.
func (s sessionProgress) Plan(steps []session.Step) { s.p.setPlan(steps) }

// Begin marks phase i as running.
func (s sessionProgress) Begin(i int) { s.p.begin(i) }

// End marks phase i as finished.
func (s sessionProgress) End(i int, d time.Duration, status, reason string) {
	s.p.end(i, d, status, reason)
}

// Skip marks phase i as skipped.
func (s sessionProgress) Skip(i int) { s.p.skip(i) }

// Done ends the progress display.
func (s sessionProgress) Done() { s.p.done() }
