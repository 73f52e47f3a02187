package benchrun

import (
	"fmt"
	"io"
	"time"

	"boardbench/internal/iostreams"
	"boardbench/internal/session"
)

// progress shows where the run is through the one status line of
// iostreams: one updating line on a terminal (phase, its progress, the
// run's time left, temperature and clock, redrawn every second), plain
// lines per phase otherwise.
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

// setPlan starts showing the phases; on a terminal the line is redrawn
// every second.
func (p *progress) setPlan(steps []session.Step) {
	plan := make([]iostreams.Step, len(steps))
	for i, s := range steps {
		plan[i] = iostreams.Step{Title: s.Title, Kind: s.Kind, Estimate: s.Estimate}
	}
	p.st.Plan(plan)
}

// begin marks phase i as running.
func (p *progress) begin(i int) { p.st.Begin(i) }

// sub names the current step inside a phase ("aes-192-cbc (2 of 3)").
func (p *progress) sub(s string) { p.st.Detail(s) }

// end records that phase i took d and ended with status (and reason).
func (p *progress) end(i int, d time.Duration, status, reason string) {
	p.st.End(i, d)
	n, title := p.st.Steps(i)
	switch {
	case status == "ok" && !p.tty:
		p.linef("      done in %.1f s", d.Seconds())
	case status != "ok":
		msg := fmt.Sprintf("%s after %.1f s", status, d.Seconds())
		if reason != "" {
			msg += ": " + reason
		}
		if p.tty {
			p.linef("[%d/%d] %s: %s", i+1, n, title, msg)
		} else {
			p.linef("      %s", msg)
		}
	}
}

// skip records that phase i was skipped.
func (p *progress) skip(i int) {
	p.st.Skip(i)
	if !p.tty {
		n, title := p.st.Steps(i)
		p.linef("[%d/%d] %s: skipped", i+1, n, title)
	}
}

// done stops the redrawing and clears the line.
func (p *progress) done() { p.st.Close() }
