package benchrun

import (
	"boardbench/internal/session"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// ETA estimates the time left in a run from each phase's estimate, scaled
// by how long finished phases of the same kind really took.
type ETA struct {
	kinds    []string
	estimate []time.Duration
	actual   []time.Duration
	done     []bool
	skipped  []bool
}

// NewETA returns an ETA for phases of the given kinds and estimates.
func NewETA(kinds []string, estimates []time.Duration) *ETA {
	n := len(estimates)
	return &ETA{kinds: kinds, estimate: estimates, actual: make([]time.Duration, n), done: make([]bool, n), skipped: make([]bool, n)}
}

// Done records that phase i took d.
func (e *ETA) Done(i int, d time.Duration) {
	if i >= 0 && i < len(e.done) {
		e.done[i], e.actual[i] = true, d
	}
}

// Skip records that phase i was skipped (it takes no time and says nothing
// about its kind).
func (e *ETA) Skip(i int) {
	if i >= 0 && i < len(e.done) {
		e.done[i], e.skipped[i] = true, true
	}
}

// factor is actual over estimated time of the finished phases of kind; 1
// when none finished.
func (e *ETA) factor(kind string) float64 {
	var est, act time.Duration
	for i := range e.done {
		if e.done[i] && !e.skipped[i] && e.kinds[i] == kind && kind != "" && e.estimate[i] > 0 {
			est += e.estimate[i]
			act += e.actual[i]
		}
	}
	if est <= 0 || act <= 0 {
		return 1
	}
	return float64(act) / float64(est)
}

// Estimate returns the expected duration of phase i.
func (e *ETA) Estimate(i int) time.Duration {
	if i < 0 || i >= len(e.estimate) {
		return 0
	}
	k := ""
	if i < len(e.kinds) {
		k = e.kinds[i]
	}
	return time.Duration(float64(e.estimate[i]) * e.factor(k))
}

// Remaining returns the time left when phase cur has run for elapsed: what
// is left of cur (never negative) plus the estimates of the phases after it
// that have not finished.
func (e *ETA) Remaining(cur int, elapsed time.Duration) time.Duration {
	var left time.Duration
	for i := range e.estimate {
		switch {
		case e.done[i] || i < cur:
		case i == cur:
			left += max(e.Estimate(i)-elapsed, 0)
		default:
			left += e.Estimate(i)
		}
	}
	return left
}

// progress shows where the run is: one updating line on a terminal (phase,
// its progress, the run's ETA, temperature and clock, redrawn every
// second), plain lines per phase otherwise.
type progress struct {
	w   io.Writer
	tty bool
	// width is the terminal width the updating line must fit.
	width int
	now   func() time.Time
	// status returns the current temperature and clock ("" when unknown).
	status func() string

	mu       sync.Mutex
	titles   []string
	eta      *ETA
	cur      int
	curStart time.Time
	subText  string
	stop     chan struct{}
	stopped  chan struct{}
}

func newProgress(w io.Writer, tty bool, width int, now func() time.Time) *progress {
	if width <= 0 {
		width = 80
	}
	return &progress{w: w, tty: tty && w != nil, width: width, now: now, cur: -1}
}

// linef writes a plain line (clearing the updating line first).
func (p *progress) linef(format string, args ...any) {
	if p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
	fmt.Fprintf(p.w, format+"\n", args...)
}

// redraw replaces the updating line (terminal only).
func (p *progress) redraw(s string) {
	if !p.tty {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.w, "\r\x1b[K"+fit(s, p.width-1))
}

// fit cuts s to at most n characters, marking a cut with "…".
func fit(s string, n int) string {
	r := []rune(s)
	if len(r) <= n || n < 2 {
		return s
	}
	return string(r[:n-1]) + "…"
}

// clear removes the updating line.
func (p *progress) clear() { p.redraw("") }

// setPlan starts showing the phases; on a terminal a ticker redraws the
// line every second.
func (p *progress) setPlan(steps []session.Step) {
	kinds := make([]string, len(steps))
	est := make([]time.Duration, len(steps))
	p.mu.Lock()
	p.titles = make([]string, len(steps))
	for i, s := range steps {
		kinds[i], est[i], p.titles[i] = s.Kind, s.Estimate, s.Title
	}
	p.eta = NewETA(kinds, est)
	p.mu.Unlock()
	if !p.tty {
		return
	}
	p.stop, p.stopped = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(p.stopped)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			select {
			case <-p.stop:
				return
			case <-t.C:
				p.redrawLine()
			}
		}
	}()
}

// begin marks phase i as running.
func (p *progress) begin(i int) {
	p.mu.Lock()
	p.cur, p.curStart, p.subText = i, p.now(), ""
	n, title, left := len(p.titles), p.titles[i], p.eta.Remaining(i, 0)
	p.mu.Unlock()
	if p.tty {
		p.redrawLine()
		return
	}
	if p.w != nil {
		p.linef("[%d/%d] %s (run: about %s left)", i+1, n, title, fmtDuration(left))
	}
}

// sub names the current step inside a phase ("aes-192-cbc (2 of 3)").
func (p *progress) sub(s string) {
	p.mu.Lock()
	p.subText = s
	p.mu.Unlock()
	if p.tty {
		p.redrawLine()
	} else if p.w != nil {
		p.linef("      %s", s)
	}
}

// end records that phase i took d and ended with status (and reason).
func (p *progress) end(i int, d time.Duration, status, reason string) {
	p.mu.Lock()
	if p.eta != nil {
		p.eta.Done(i, d)
	}
	p.mu.Unlock()
	if p.w == nil {
		return
	}
	switch {
	case status == "ok" && !p.tty:
		p.linef("      done in %.1f s", d.Seconds())
	case status != "ok":
		msg := fmt.Sprintf("%s after %.1f s", status, d.Seconds())
		if reason != "" {
			msg += ": " + reason
		}
		if p.tty {
			p.linef("[%d/%d] %s: %s", i+1, len(p.titles), p.titles[i], msg)
		} else {
			p.linef("      %s", msg)
		}
	}
}

// skip records that phase i was skipped.
func (p *progress) skip(i int) {
	p.mu.Lock()
	if p.eta != nil {
		p.eta.Skip(i)
	}
	n, title := len(p.titles), p.titles[i]
	p.mu.Unlock()
	if !p.tty && p.w != nil {
		p.linef("[%d/%d] %s: skipped", i+1, n, title)
	}
}

// done stops the ticker and clears the line.
func (p *progress) done() {
	if p.stop != nil {
		close(p.stop)
		<-p.stopped
		p.stop = nil
	}
	p.clear()
}

// redrawLine draws the updating line for the current phase.
func (p *progress) redrawLine() {
	p.mu.Lock()
	if p.cur < 0 || p.eta == nil {
		p.mu.Unlock()
		return
	}
	elapsed := p.now().Sub(p.curStart)
	est := p.eta.Estimate(p.cur)
	pct := 99.0
	if est > 0 {
		pct = min(99, 100*elapsed.Seconds()/est.Seconds())
	}
	// Short, changing parts first: a narrow terminal cuts the title.
	parts := []string{fmt.Sprintf("[%d/%d] %.0f%%", p.cur+1, len(p.titles), pct), "run ETA " + fmtDuration(p.eta.Remaining(p.cur, elapsed))}
	title, sub := p.titles[p.cur], p.subText
	p.mu.Unlock()
	if p.status != nil {
		if s := p.status(); s != "" {
			parts = append(parts, s)
		}
	}
	if sub != "" {
		parts = append(parts, sub)
	}
	parts = append(parts, title)
	p.redraw(strings.Join(parts, " · "))
}

// fmtDuration writes a duration as "1:05" (minutes:seconds) or "42 s".
func fmtDuration(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	if s < 60 {
		return fmt.Sprintf("%d s", s)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
