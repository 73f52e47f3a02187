package iostreams

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"boardbench/internal/testutil/wait"
)

// clock is a fake time source moved by hand.
type clock struct{ t time.Time }

func (c *clock) now() time.Time                   { return c.t }
func (c *clock) add(d time.Duration)              { c.t = c.t.Add(d) }
func newClock() *clock                            { return &clock{t: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)} }
func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestETA(t *testing.T) {
	s := time.Second
	e := NewETA([]Step{{Kind: "clock", Estimate: 1 * s}, {Kind: "7zip", Estimate: 40 * s}, {Kind: "7zip", Estimate: 40 * s},
		{Kind: "openssl", Estimate: 18 * s}, {Kind: "7zip", Estimate: 100 * s}})
	remaining := func(cur int, elapsed time.Duration) time.Duration {
		t.Helper()
		d, ok := e.Remaining(cur, elapsed)
		if !ok {
			t.Fatalf("Remaining(%d, %v) unknown", cur, elapsed)
		}
		return d
	}
	if got := remaining(0, 0); got != 199*s {
		t.Errorf("at start: %v", got)
	}
	// 10 s into step 1; a step past its estimate counts 0.
	if got := remaining(1, 10*s); got != 188*s {
		t.Errorf("10 s into step 1: %v", got)
	}
	if got := remaining(1, 60*s); got != 158*s {
		t.Errorf("past the estimate: %v", got)
	}
	e.Done(0, 2*s)
	e.Done(1, 60*s) // 7-Zip is 1.5x slower than estimated here
	if got, _ := e.Estimate(2); got != 60*s {
		t.Errorf("scaled estimate %v", got)
	}
	if got := remaining(2, 0); got != 60*s+18*s+150*s {
		t.Errorf("after 7-Zip single: %v", got)
	}
	e.Skip(3) // openssl missing
	if got := remaining(2, 30*s); got != 30*s+150*s {
		t.Errorf("with openssl skipped: %v", got)
	}
}

func TestETAUnknownEstimates(t *testing.T) {
	s := time.Second
	e := NewETA([]Step{{Kind: "pair"}, {Kind: "pair"}, {Kind: "pair"}, {Kind: ""}})
	if _, ok := e.Remaining(0, 0); ok {
		t.Error("time left known before any step finished")
	}
	e.Done(0, 2*s)
	e.Done(1, 4*s)
	// The last step has no kind and no estimate: still unknown.
	if _, ok := e.Remaining(2, 0); ok {
		t.Error("time left known with a step nothing can estimate")
	}
	e.Skip(3)
	if got, ok := e.Remaining(2, time.Second); !ok || got != 2*s {
		t.Errorf("learned from the finished pairs: %v %v, want 2s", got, ok)
	}
}

func TestFormatLeft(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{0, "taking longer than estimated"},
		{-time.Second, "taking longer than estimated"},
		{42 * time.Second, "about 42 s left"},
		{300 * time.Millisecond, "about 1 s left"},
		{75 * time.Second, "about 1 min left"},
		{150 * time.Second, "about 3 min left"},
		{59*time.Minute + 50*time.Second, "about 60 min left"},
		{80 * time.Minute, "about 1 h 20 min left"},
	}
	for _, tt := range tests {
		if got := FormatLeft(tt.d); got != tt.want {
			t.Errorf("FormatLeft(%v) = %q, want %q", tt.d, got, tt.want)
		}
	}
}

func TestFit(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"[5/6] 45% · about 3 min left · 7-Zip", 12, "[5/6] 45% ·…"},
		{"short", 80, "short"},
		{"exactly", 7, "exactly"},
		{"°°°°°°", 4, "°°°…"},
	}
	for _, tt := range tests {
		if got := Fit(tt.s, tt.n); got != tt.want {
			t.Errorf("Fit(%q, %d) = %q, want %q", tt.s, tt.n, got, tt.want)
		}
	}
}

// planSteps is the plan the status tests run.
var planSteps = []Step{
	{Title: "Clock of one CPU per cluster", Kind: "clock", Estimate: 10 * time.Second},
	{Title: "7-Zip multi-threaded", Kind: "7zip", Estimate: 120 * time.Second},
	{Title: "openssl", Kind: "openssl", Estimate: 30 * time.Second},
}

// runPlan drives a Status through the plan and returns what it wrote.
func runPlan(opt StatusOptions) string {
	var b bytes.Buffer
	c := newClock()
	opt.Now = c.now
	st := NewStatus(&b, opt)
	st.Plan(planSteps)
	st.Begin(0)
	c.add(5 * time.Second)
	st.Redraw()
	c.add(15 * time.Second) // twice the estimate
	st.End(0, 20*time.Second)
	st.Begin(1)
	st.Detail("run 1 of 3")
	st.Line("a line of its own")
	st.Skip(2)
	st.Close()
	return b.String()
}

func TestStatusPlan(t *testing.T) {
	tests := []struct {
		name    string
		opt     StatusOptions
		want    []string
		wantNot []string
	}{
		{"terminal", StatusOptions{TTY: true, Width: 200},
			[]string{
				"\r\x1b[K[1/3] 0% · about 3 min left · Clock of one CPU per cluster",
				"\r\x1b[K[1/3] 50% · about 3 min left · Clock of one CPU per cluster",
				"\r\x1b[K[2/3] 0% · about 3 min left · 7-Zip multi-threaded",
				"\r\x1b[K[2/3] 0% · about 3 min left · run 1 of 3 · 7-Zip multi-threaded",
				"\r\x1b[Ka line of its own\n[2/3] 0% · about 3 min left · run 1 of 3 · 7-Zip multi-threaded",
			},
			[]string{"(about"}},
		{"pipe", StatusOptions{LinesOnPipe: true},
			[]string{"[1/3] Clock of one CPU per cluster (about 3 min left)\n", "[2/3] 7-Zip multi-threaded (about 3 min left)\n",
				"      run 1 of 3\n", "a line of its own\n"},
			[]string{"\r", "\x1b", "%"}},
		{"pipe without lines", StatusOptions{}, []string{"a line of its own\n"}, []string{"[1/3]", "\r"}},
		{"narrow terminal", StatusOptions{TTY: true, Width: 30}, []string{"\r\x1b[K[1/3] 0% · about 3 min left …"}, []string{"Clock of"}},
	}
	for _, tt := range tests {
		out := runPlan(tt.opt)
		for _, w := range tt.want {
			if !strings.Contains(out, w) {
				t.Errorf("%s: output lacks %q:\n%q", tt.name, w, out)
			}
		}
		for _, w := range tt.wantNot {
			if strings.Contains(out, w) {
				t.Errorf("%s: output has %q:\n%q", tt.name, w, out)
			}
		}
		if tt.opt.TTY {
			if !strings.HasSuffix(out, "\r\x1b[K") {
				t.Errorf("%s: the line is not cleared at the end: %q", tt.name, out)
			}
			for _, seg := range strings.Split(out, "\r\x1b[K") {
				if n := len([]rune(strings.TrimSuffix(seg, "\n"))); n > tt.opt.Width-1 && !strings.Contains(seg, "line of its own") {
					t.Errorf("%s: %d columns in %q, terminal has %d", tt.name, n, seg, tt.opt.Width)
				}
			}
		}
	}
}

func TestStatusWorkAndShow(t *testing.T) {
	tests := []struct {
		name string
		opt  StatusOptions
		want string
	}{
		{"terminal", StatusOptions{TTY: true, Prefix: "boardbench mem"},
			"\r\x1b[Kboardbench mem: cpu0 bandwidth…" +
				"\r\x1b[Kboardbench mem: 25% · about 1 min left · cpu0 bandwidth" +
				"\r\x1b[Kboardbench mem: 100% · cpu0 latency" +
				"\r\x1b[K"},
		{"pipe", StatusOptions{LinesOnPipe: true, Prefix: "boardbench mem"},
			"boardbench mem: cpu0 bandwidth…\n" +
				"boardbench mem: 25% · about 1 min left · cpu0 bandwidth\n" +
				"boardbench mem: 100% · cpu0 latency\n"},
		{"pipe without lines", StatusOptions{Prefix: "boardbench mem"}, ""},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		c := newClock()
		tt.opt.Now = c.now
		st := NewStatus(&b, tt.opt)
		st.Show("cpu0 bandwidth…")
		st.Work(40 * time.Second)
		c.add(20 * time.Second) // half the estimated speed
		st.Advance("cpu0 bandwidth", 10*time.Second)
		st.Advance("cpu0 latency", 30*time.Second)
		st.Close()
		if b.String() != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, b.String(), tt.want)
		}
	}
}

func TestStatusWithoutWriter(t *testing.T) {
	st := NewStatus(nil, StatusOptions{TTY: true, LinesOnPipe: true, Tick: time.Millisecond})
	st.Plan(planSteps)
	st.Begin(0)
	st.Line("nothing")
	st.Show("nothing")
	st.Close()
	if st.TTY() {
		t.Error("a Status without a writer claims a terminal")
	}
}

func TestStatusTickerRedrawsExtra(t *testing.T) {
	var b lockedBuffer
	calls := make(chan struct{}, 100)
	st := NewStatus(&b, StatusOptions{TTY: true, Tick: 5 * time.Millisecond, Extra: func() string {
		calls <- struct{}{}
		return "52°C"
	}})
	st.Plan(planSteps)
	st.Begin(0)
	for range 3 {
		select {
		case <-calls:
		case <-time.After(wait.HangGuard):
			t.Fatal("hung: the ticker did not redraw")
		}
	}
	st.Close()
	if out := b.String(); !strings.Contains(out, " · 52°C · Clock of one CPU per cluster") || !strings.HasSuffix(out, "\r\x1b[K") {
		t.Errorf("output %q", out)
	}
}

// lockedBuffer is a bytes.Buffer safe for the ticker's goroutine.
type lockedBuffer struct {
	mu chan struct{}
	b  bytes.Buffer
}

func (l *lockedBuffer) lock() {
	if l.mu == nil {
		l.mu = make(chan struct{}, 1)
	}
	l.mu <- struct{}{}
}
func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.lock()
	defer func() { <-l.mu }()
	return l.b.Write(p)
}
func (l *lockedBuffer) String() string { l.lock(); defer func() { <-l.mu }(); return l.b.String() }

func TestColorEnabled(t *testing.T) {
	tests := []struct {
		tty  bool
		env  map[string]string
		want bool
	}{
		{true, nil, true},
		{true, map[string]string{"TERM": "xterm-256color"}, true},
		{false, nil, false},
		{true, map[string]string{"NO_COLOR": "1"}, false},
		{true, map[string]string{"NO_COLOR": ""}, true}, // set but empty: no-color.org says colours stay
		{true, map[string]string{"TERM": "dumb"}, false},
	}
	for _, tt := range tests {
		if got := colorEnabled(tt.tty, env(tt.env)); got != tt.want {
			t.Errorf("colorEnabled(%v, %v) = %v, want %v", tt.tty, tt.env, got, tt.want)
		}
	}
}

func TestWidth(t *testing.T) {
	var pipe bytes.Buffer
	tests := []struct {
		name    string
		columns string
		want    int
	}{
		{"no COLUMNS", "", DefaultWidth},
		{"COLUMNS", "132", 132},
		{"COLUMNS too narrow", "5", MinWidth},
		{"COLUMNS too wide", "1000", MaxWidth},
		{"COLUMNS not a number", "wide", DefaultWidth},
		{"COLUMNS negative", "-3", DefaultWidth},
	}
	for _, tt := range tests {
		if got := widthOf(&pipe, env(map[string]string{"COLUMNS": tt.columns})); got != tt.want {
			t.Errorf("%s: width %d, want %d", tt.name, got, tt.want)
		}
	}
	s, _, _ := Test()
	s.SetWidth(9)
	if s.TerminalWidth() != MinWidth || s.StderrWidth() != MinWidth {
		t.Errorf("SetWidth(9): %d %d", s.TerminalWidth(), s.StderrWidth())
	}
}

// TestRealTerminal opens a pseudo-terminal of 123 columns: it is a TTY, and
// its width is its own, whatever COLUMNS says.
func TestRealTerminal(t *testing.T) {
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skipf("no pseudo-terminals here: %v", err)
	}
	defer ptmx.Close()
	if err := unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0); err != nil {
		t.Skipf("unlockpt: %v", err)
	}
	n, err := unix.IoctlGetUint32(int(ptmx.Fd()), unix.TIOCGPTN)
	if err != nil {
		t.Skipf("ptsname: %v", err)
	}
	pts, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("opening the pty: %v", err)
	}
	defer pts.Close()
	if err := unix.IoctlSetWinsize(int(pts.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Col: 123, Row: 40}); err != nil {
		t.Fatal(err)
	}
	if !isTerminal(pts) {
		t.Error("the pty is not seen as a terminal")
	}
	if got := widthOf(pts, env(map[string]string{"COLUMNS": "60"})); got != 123 {
		t.Errorf("pty width %d, want 123", got)
	}
	st := (&IOStreams{ErrOut: pts, errTTY: true}).NewStatus(StatusOptions{Prefix: "boardbench test"})
	if !st.TTY() || st.opt.Width != 123 {
		t.Errorf("status on the pty: tty %v, width %d", st.TTY(), st.opt.Width)
	}
}

// TestStatusUnknownEstimates: steps without estimates show no share and no
// time left until a step of their kind has finished.
func TestStatusUnknownEstimates(t *testing.T) {
	var b bytes.Buffer
	c := newClock()
	st := NewStatus(&b, StatusOptions{TTY: true, Prefix: "boardbench c2c", Now: c.now})
	st.Plan([]Step{{Title: "cpu0-cpu1", Kind: "pair"}, {Title: "cpu0-cpu2", Kind: "pair"}, {Title: "cpu1-cpu2", Kind: "pair"}})
	st.Begin(0)
	c.add(2 * time.Second)
	st.End(0, 2*time.Second)
	st.Begin(1)
	c.add(time.Second)
	st.Redraw()
	st.Close()
	want := "\r\x1b[Kboardbench c2c: [1/3] · cpu0-cpu1" +
		"\r\x1b[Kboardbench c2c: [2/3] 0% · about 4 s left · cpu0-cpu2" +
		"\r\x1b[Kboardbench c2c: [2/3] 50% · about 3 s left · cpu0-cpu2" +
		"\r\x1b[K"
	if b.String() != want {
		t.Errorf("\n got %q\nwant %q", b.String(), want)
	}
}
