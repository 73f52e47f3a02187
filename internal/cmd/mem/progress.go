package mem

import (
	"time"

	"boardbench/internal/iostreams"
)

// progress shows how far the measurement is on the status line of
// iostreams (on a terminal only). Work is counted in estimated seconds.
type progress struct {
	st *iostreams.Status
}

// newProgress starts the status line for total estimated seconds of work.
func newProgress(ios *iostreams.IOStreams, total float64) *progress {
	st := ios.NewStatus(iostreams.StatusOptions{Prefix: "boardbench mem"})
	st.Work(seconds(total))
	return &progress{st: st}
}

// step counts weight seconds of work as done and redraws the line.
func (p *progress) step(label string, weight float64) { p.st.Advance(label, seconds(weight)) }

// finish clears the line.
func (p *progress) finish() { p.st.Close() }

// seconds converts estimated seconds to a duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
