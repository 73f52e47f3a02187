package benchrun

import (
	"io"
	"time"

	"boardbench/internal/iostreams"
)

// progress is the run's status line (the one iostreams.Status, whose
// plan the session engine shows): one updating line on a terminal (phase,
// its progress, the run's time left, temperature and clock, redrawn every
// second), plain lines per phase otherwise; the run adds the idle wait and
// the detail of a phase.
type progress struct {
	st  *iostreams.Status
	tty bool
	// status returns the current temperature and clock ("" when unknown).
	status func() string
}

func newProgress(w io.Writer, tty bool, width int, now func() time.Time) *progress {
	p := &progress{tty: tty && w != nil}
	p.st = iostreams.NewStatus(w, iostreams.StatusOptions{
		TTY: tty, LinesOnPipe: true, Width: width, Now: now, Tick: time.Second,
		Extra: func() string {
			if p.status == nil {
				return ""
			}
			return p.status()
		},
	})
	return p
}

// linef writes a plain line (clearing the updating line first).
func (p *progress) linef(format string, args ...any) { p.st.Line(format, args...) }

// redraw replaces the updating line (terminal only).
func (p *progress) redraw(s string) {
	if p.tty {
		p.st.Show(s)
	}
}

// clear removes the updating line.
func (p *progress) clear() { p.st.Clear() }

// sub names the current step inside a phase ("aes-192-cbc (2 of 3)").
func (p *progress) sub(s string) { p.st.Detail(s) }
