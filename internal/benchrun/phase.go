package benchrun

import (
	"fmt"
	"strings"
	"time"

	"boardbench/internal/check"
	"boardbench/internal/host"
)

func ptrTime(t time.Time) *time.Time { return &t }

// pick returns the first candidate CPU of t that can be pinned, recording
// the ones that cannot; ok is false when none can.
func (r *runner) pick(t Target) (cpu int, ok bool) {
	for _, c := range t.Candidates {
		if _, failed := r.pinFailed[c]; failed {
			continue
		}
		if err := r.pinCheck(c); err != nil {
			r.pinFailure(c, err)
			continue
		}
		return c, true
	}
	return -1, false
}

// pinCheck pins the calling thread to cpu and releases it at once.
func (r *runner) pinCheck(cpu int) error {
	if r.cfg.Pin != nil {
		return r.cfg.Pin(cpu)
	}
	unpin, err := host.PinThread(cpu)
	if err != nil {
		return err
	}
	unpin()
	return nil
}

// pinFailure records a CPU that could not be pinned, once.
func (r *runner) pinFailure(cpu int, err error) {
	if _, seen := r.pinFailed[cpu]; seen {
		return
	}
	r.pinFailed[cpu] = err.Error()
	for i := range r.runFindings {
		if r.runFindings[i].ID == check.IDPinningFailed {
			r.runFindings[i].Evidence = append(r.runFindings[i].Evidence, check.PinningEvidence(cpu, err))
			return
		}
	}
	r.runFindings = append(r.runFindings, check.PinningFailed(cpu, err))
}

// pinnable returns the usable CPUs that can be pinned.
func (r *runner) pinnable() []int {
	var out []int
	for _, c := range r.usable {
		if _, failed := r.pinFailed[c]; failed {
			continue
		}
		if err := r.pinCheck(c); err != nil {
			r.pinFailure(c, err)
			continue
		}
		out = append(out, c)
	}
	return out
}

// liveStatus returns the current temperature and clocks for the progress
// line, from the monitor's latest sample.
func (r *runner) liveStatus() string {
	if r.mon == nil {
		return ""
	}
	s := r.mon.Last()
	if s == nil {
		return ""
	}
	var parts []string
	if s.TempC != nil {
		parts = append(parts, fmt.Sprintf("%.1f°C", *s.TempC))
	}
	var clocks []string
	for _, c := range s.ClockMHz {
		if c != nil {
			clocks = append(clocks, fmt.Sprintf("%.0f", *c))
		}
	}
	if len(clocks) > 0 {
		parts = append(parts, strings.Join(clocks, "/")+" MHz")
	}
	return strings.Join(parts, ", ")
}
