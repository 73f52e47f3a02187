package mem

import (
	"fmt"
	"io"
	"time"
)

// progress writes one updating status line with an ETA to a terminal.
// Work is counted in estimated seconds.
type progress struct {
	w       io.Writer
	enabled bool
	total   float64
	worked  float64
	start   time.Time
}

func newProgress(w io.Writer, enabled bool, total float64) *progress {
	return &progress{w: w, enabled: enabled, total: total, start: time.Now()}
}

// step counts weight seconds of work as done and redraws the line.
func (p *progress) step(label string, weight float64) {
	p.worked += weight
	if !p.enabled {
		return
	}
	frac := min(p.worked/max(p.total, 1e-9), 1)
	eta := "?"
	if frac > 0 {
		el := time.Since(p.start).Seconds()
		eta = fmt.Sprintf("%.0f s", el*(1-frac)/frac)
	}
	fmt.Fprintf(p.w, "\r\x1b[Kboardbench mem: %s, %.0f%% (about %s left)", label, 100*frac, eta)
}

// finish clears the line.
func (p *progress) finish() {
	if p.enabled {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}
