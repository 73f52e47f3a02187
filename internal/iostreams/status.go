package iostreams

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
)

// Terminal control sequences of the updating line.
const (
	// clearLine returns to the start of the line and erases it.
	clearLine = "\r\x1b[K"
)

// StatusOptions configure a Status.
type StatusOptions struct {
	// TTY makes the status one line redrawn in place; otherwise it is
	// written as plain lines (or not at all, see LinesOnPipe).
	TTY bool
	// LinesOnPipe writes plain lines when not on a terminal; without it a
	// Status on a pipe writes only what Line is given.
	LinesOnPipe bool
	// Width is the terminal width in columns; the updating line is cut to
	// fit (0: DefaultWidth).
	Width int
	// Prefix starts the updating line and the plain lines of Show and
	// Advance, e.g. "boardbench mem".
	Prefix string
	// Extra returns live text shown on the updating line (temperature,
	// clock); nil for none. It is called without the Status's lock held.
	Extra func() string
	// Tick redraws the updating line this often once a plan is set, so
	// that the elapsed share and Extra stay current (0: only on events).
	Tick time.Duration
	// Now returns the current time; nil means time.Now.
	Now func() time.Time
}

// Status shows how far a command is: on a terminal one line redrawn in
// place ("[3/9] 45% · about 2 min left · … · title"), cut to the
// terminal's width; on a pipe plain lines, one per event. It knows three
// kinds of progress: a plan of steps (Plan, Begin, Detail, End, Skip), an
// amount of estimated work done bit by bit (Work, Advance), and free text
// (Show). All methods are safe for concurrent use, and do nothing on a
// Status without a writer.
type Status struct {
	w   io.Writer
	opt StatusOptions

	mu sync.Mutex
	// shown is the updating line on screen ("" when none).
	shown string
	// Plan mode.
	titles   []string
	eta      *ETA
	cur      int
	curStart time.Time
	detail   string
	// Work mode: estimated work in total and done, and when it started.
	workTotal, workDone time.Duration
	workStart           time.Time
	workLabel           string

	stop    chan struct{}
	stopped chan struct{}
}

// NewStatus returns a Status writing to w (nil: writes nothing).
func NewStatus(w io.Writer, opt StatusOptions) *Status {
	if opt.Width <= 0 {
		opt.Width = DefaultWidth
	}
	if opt.Now == nil {
		opt.Now = time.Now
	}
	return &Status{w: w, opt: opt, cur: -1}
}

// TTY reports whether the status is an updating line.
func (st *Status) TTY() bool { return st.opt.TTY && st.w != nil }

// Plain reports whether events are written as plain lines (on a pipe,
// with LinesOnPipe).
func (st *Status) Plain() bool { return st.plain() }

// plain reports whether events are written as plain lines.
func (st *Status) plain() bool { return !st.opt.TTY && st.opt.LinesOnPipe && st.w != nil }

// Line writes a line of its own (clearing the updating line first, and
// drawing it again below). It is written on a pipe too.
func (st *Status) Line(format string, args ...any) {
	if st.w == nil {
		return
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.TTY() && st.shown != "" {
		fmt.Fprint(st.w, clearLine)
	}
	fmt.Fprintf(st.w, format+"\n", args...)
	if st.TTY() && st.shown != "" {
		fmt.Fprint(st.w, st.shown)
	}
}

// Show replaces the status with free text: the updating line on a
// terminal, a plain line on a pipe (with LinesOnPipe).
func (st *Status) Show(text string) {
	switch {
	case st.TTY():
		st.draw(st.prefixed(text))
	case st.plain():
		st.Line("%s", st.prefixed(text))
	}
}

// prefixed puts the prefix before s.
func (st *Status) prefixed(s string) string {
	if st.opt.Prefix == "" || s == "" {
		return s
	}
	return st.opt.Prefix + ": " + s
}

// draw replaces the updating line with s, cut to the width.
func (st *Status) draw(s string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.drawLocked(s)
}

func (st *Status) drawLocked(s string) {
	if !st.TTY() {
		return
	}
	st.shown = Fit(s, st.opt.Width-1)
	fmt.Fprint(st.w, clearLine+st.shown)
}

// Clear removes the updating line.
func (st *Status) Clear() {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.TTY() && st.shown != "" {
		fmt.Fprint(st.w, clearLine)
	}
	st.shown = ""
}

// Close stops the redrawing and clears the updating line.
func (st *Status) Close() {
	if st.stop != nil {
		close(st.stop)
		<-st.stopped
		st.stop = nil
	}
	st.Clear()
}

// Plan sets the steps of the job; with Tick on a terminal the line is
// redrawn periodically until Close.
func (st *Status) Plan(steps []Step) {
	st.mu.Lock()
	st.titles = make([]string, len(steps))
	for i, s := range steps {
		st.titles[i] = s.Title
	}
	st.eta, st.cur = NewETA(steps), -1
	st.mu.Unlock()
	if !st.TTY() || st.opt.Tick <= 0 || st.stop != nil {
		return
	}
	st.stop, st.stopped = make(chan struct{}), make(chan struct{})
	go func(stop <-chan struct{}, stopped chan<- struct{}) {
		defer close(stopped)
		t := time.NewTicker(st.opt.Tick)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				st.Redraw()
			}
		}
	}(st.stop, st.stopped)
}

// Begin marks step i as running: the updating line shows it, a pipe gets
// "[i/n] title (about … left)".
func (st *Status) Begin(i int) {
	st.mu.Lock()
	if st.eta == nil || i < 0 || i >= len(st.titles) {
		st.mu.Unlock()
		return
	}
	st.cur, st.curStart, st.detail = i, st.opt.Now(), ""
	line := fmt.Sprintf("[%d/%d] %s", i+1, len(st.titles), st.titles[i])
	if left, ok := st.eta.Remaining(i, 0); ok {
		line += " (" + FormatLeft(left) + ")"
	}
	st.mu.Unlock()
	if st.TTY() {
		st.Redraw()
	} else if st.plain() {
		st.Line("%s", line)
	}
}

// Detail names what the current step is doing ("aes-192-cbc (2 of 3)");
// a pipe gets it as an indented line.
func (st *Status) Detail(s string) {
	st.mu.Lock()
	st.detail = s
	st.mu.Unlock()
	if st.TTY() {
		st.Redraw()
	} else if st.plain() {
		st.Line("      %s", s)
	}
}

// End records that step i took d (which corrects the estimates of the
// steps of its kind still to run). It writes nothing: the caller says how
// the step ended.
func (st *Status) End(i int, d time.Duration) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.eta != nil {
		st.eta.Done(i, d)
	}
}

// Skip records that step i will not run.
func (st *Status) Skip(i int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.eta != nil {
		st.eta.Skip(i)
	}
}

// Steps returns the number of planned steps and the title of step i
// ("" when out of range).
func (st *Status) Steps(i int) (n int, title string) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if i >= 0 && i < len(st.titles) {
		title = st.titles[i]
	}
	return len(st.titles), title
}

// Redraw draws the updating line again for the current step (terminal
// only): "[3/9] 45% · about 2 min left · extra · detail · title", the
// short changing parts first so that a narrow terminal cuts the title.
func (st *Status) Redraw() {
	if !st.TTY() {
		return
	}
	st.mu.Lock()
	if st.eta == nil || st.cur < 0 {
		st.mu.Unlock()
		return
	}
	elapsed := st.opt.Now().Sub(st.curStart)
	// The share of the current step, while its estimate is known (a step
	// past its estimate stays at 99%).
	counter := fmt.Sprintf("[%d/%d]", st.cur+1, len(st.titles))
	if est, ok := st.eta.Estimate(st.cur); ok && est > 0 {
		counter += fmt.Sprintf(" %.0f%%", min(99, 100*elapsed.Seconds()/est.Seconds()))
	}
	parts := []string{counter}
	if left, ok := st.eta.Remaining(st.cur, elapsed); ok {
		parts = append(parts, FormatLeft(left))
	}
	detail, title := st.detail, st.titles[st.cur]
	st.mu.Unlock()
	if st.opt.Extra != nil {
		if s := st.opt.Extra(); s != "" {
			parts = append(parts, s)
		}
	}
	if detail != "" {
		parts = append(parts, detail)
	}
	parts = append(parts, title)
	st.draw(st.prefixed(strings.Join(parts, " · ")))
}

// Work starts a job measured in estimated work rather than steps: total is
// the estimated duration of all of it.
func (st *Status) Work(total time.Duration) {
	st.mu.Lock()
	defer st.mu.Unlock()
	st.workTotal, st.workDone, st.workStart = total, 0, st.opt.Now()
}

// Advance records that a piece of work estimated at est finished, label
// naming it, and shows "45% · about 2 min left · label". The time left is
// the estimated work still to do scaled by how long the work done so far
// really took against its estimate.
func (st *Status) Advance(label string, est time.Duration) {
	st.mu.Lock()
	st.workDone += est
	st.workLabel = label
	frac := 1.0
	if st.workTotal > 0 {
		frac = min(float64(st.workDone)/float64(st.workTotal), 1)
	}
	parts := []string{fmt.Sprintf("%.0f%%", 100*frac)}
	if elapsed := st.opt.Now().Sub(st.workStart); st.workDone > 0 && elapsed > 0 && frac < 1 {
		scale := float64(elapsed) / float64(st.workDone)
		parts = append(parts, FormatLeft(time.Duration(float64(st.workTotal-st.workDone)*scale)))
	}
	st.mu.Unlock()
	if label != "" {
		parts = append(parts, label)
	}
	text := st.prefixed(strings.Join(parts, " · "))
	switch {
	case st.TTY():
		st.draw(text)
	case st.plain():
		st.Line("%s", text)
	}
}

// Fit cuts s to at most n characters, marking a cut with "…".
func Fit(s string, n int) string {
	r := []rune(s)
	if len(r) <= n || n < 2 {
		return s
	}
	return string(r[:n-1]) + "…"
}
