package monitor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync/atomic"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	"boardbench/internal/interrupt"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/monitor"
	"boardbench/internal/monitorrun"
	"boardbench/internal/result"
	"boardbench/internal/session"
)

// endTimeout bounds the evidence gathering after the command (kernel log,
// firmware flags), which must work even after Ctrl-C.
const endTimeout = 20 * time.Second

// Prepare is what a caller of RunCommand does once the session exists
// and before the command starts: `review --apply` makes its changes
// through the session's tuning guard, which the engine restores when the
// command ends.
type Prepare func(ctx context.Context, s *session.Session) error

// RunCommand runs argv under monitoring as `boardbench monitor -- ARGV`
// does with its default options, after prepare (nil for none).
func RunCommand(ctx context.Context, f *cmdutil.Factory, argv []string, prepare Prepare) error {
	return runCommand(&Options{Factory: f, Ctx: ctx, Interval: defaultInterval, Argv: argv, Prepare: prepare})
}

// runCommand runs opts.Argv under monitoring (the plan of
// monitorrun.Command), with the live lines on standard error, and writes
// its result.
func runCommand(opts *Options) error {
	f, ctx := opts.Factory, opts.Ctx
	h, err := f.NewHost("/")
	if err != nil {
		return err
	}
	if !h.Live() {
		return fmt.Errorf("running a command needs the live machine")
	}
	allowed, err := host.AllowedCPUs()
	if err != nil {
		return fmt.Errorf("reading the CPUs this process may use: %v", err)
	}
	var pin []int
	if opts.CPUs != "" {
		if pin, err = cpu.ParseSelection(opts.CPUs, allowed); err != nil {
			return cmdutil.Usagef("--cpus %q: %v", opts.CPUs, err)
		}
	}
	if _, err := exec.LookPath(opts.Argv[0]); err != nil {
		return monitorrun.StartError(opts.Argv[0], err)
	}

	in := inventory.Collect(h, inventory.Options{Redact: true})
	mcfg := monitor.ConfigFor(h, in)
	mcfg.Interval = opts.Interval
	started := time.Now()
	path := opts.Output
	if path == "" {
		path = defaultOutput(h, in, started)
	}
	title := quoteArgs(opts.Argv)
	cpus := pin
	if cpus == nil {
		cpus = allowed
	}
	optMap := map[string]any{
		"command":    opts.Argv,
		"cpus":       nil,
		"interval_s": opts.Interval.Seconds(),
		"output":     path,
	}
	if pin != nil {
		optMap["cpus"] = cpu.FormatCPUList(pin)
	}
	// Live monitor lines go to standard error, between the command's own
	// output lines.
	// The power column is known once the session has found its meter.
	cols := mcfg.Columns()
	var liveCols atomic.Pointer[monitor.Columns]
	liveCols.Store(&cols)
	liveOut := f.IO.ErrOut
	prom, err := listenPrometheus(opts.Prometheus, f.IO.ErrOut)
	if err != nil {
		return err
	}
	var phase result.Phase
	// On a terminal the command's standard output is a pseudo-terminal,
	// so that it streams as it would there.
	command := &monitorrun.Command{Argv: opts.Argv, Pin: pin, Stdout: f.IO.RawOut(), Stderr: f.IO.RawErrOut(),
		PTY: f.IO.IsStdoutTTY(), PTYSize: windowSize(f.IO.Out)}
	step := command.Step(title, cpus)
	cfg := session.Config{
		Host: h, Info: in, Command: "monitor", Options: optMap, Path: path,
		Interval: opts.Interval, Monitor: &mcfg, Warn: f.IO.ErrOut, Power: opts.Power, Keep: f.Keep,
		OnSample: func(smp monitor.Sample) {
			prom.sampled(ctx)
			fmt.Fprintln(liveOut, monitor.Line(*liveCols.Load(), smp))
		},
		// A wrapped benchmark's own findings (HPL's failed residual
		// check) are rules of check, run for every result.
		// The summary goes to standard error: standard output is the
		// command's. It names the result file and says the verdict.
		Print: session.Printer{Out: f.IO.ErrOut, Fallback: f.IO.Out, TextHasVerdict: true, SaysWhere: true,
			Summary: func(w io.Writer, out *session.Outcome) {
				if len(out.Result.Phases) > 0 {
					phase = out.Result.Phases[0]
				}
				writeSummary(w, out.Result, phase, mcfg, out.Path)
			}},
	}
	prepare := func(ctx context.Context, sess *session.Session) ([]session.Step, error) {
		cols = sess.Monitor().Config().Columns()
		liveCols.Store(&cols)
		if p := sess.Result().Power; p != nil {
			fmt.Fprintf(f.IO.ErrOut, "boardbench: power from %s (%s)\n", p.Source, measuresText(p.Measures))
		}
		if prom != nil {
			prom.start(ctx, h, sess.Monitor(), sess.Monitor().Config(), in, f.IO.ErrOut)
		}
		if opts.Prepare != nil {
			if err := opts.Prepare(ctx, sess); err != nil {
				return nil, err
			}
		}
		pinned := ""
		if pin != nil {
			pinned = " on cpu" + cpu.FormatCPUList(pin)
		}
		fmt.Fprintf(f.IO.ErrOut, "boardbench: running %s%s, sampling every %s s; result: %s\n",
			title, pinned, trimFloat(opts.Interval.Seconds()), path)
		io.WriteString(liveOut, monitor.Legend+"\n")
		fmt.Fprintln(liveOut, monitor.Header(cols))
		return []session.Step{step}, nil
	}
	_, err = session.Measure(ctx, cfg, session.Plan{Prepare: prepare, End: command.End(ctx)})
	var ie *interrupt.Error
	if errors.As(err, &ie) {
		// The summary said that the command was interrupted.
		return &reportedError{err}
	}
	return err
}

// reportedError is an error the summary has already told the user about:
// main exits with its status without printing it again.
type reportedError struct{ error }

// Unwrap returns the error, whose type gives the exit status.
func (e *reportedError) Unwrap() error { return e.error }

// AlreadyReported is always true.
func (e *reportedError) AlreadyReported() bool { return true }

// defaultOutput is boardbench-monitor-HOST-YYYYmmdd-HHMMSS.json in the
// current directory, HOST being the host name, else the SoC, else "machine".
func defaultOutput(h *host.Host, in *inventory.Info, t time.Time) string {
	name := ""
	if s, err := h.ReadString("/proc/sys/kernel/hostname"); err == nil {
		name = fileWord(s)
	}
	if name == "" {
		name = fileWord(in.SoC.Guess)
	}
	if name == "" {
		name = "machine"
	}
	return fmt.Sprintf("boardbench-monitor-%s-%s.json", name, t.Format("20060102-150405"))
}

// fileWord keeps letters, digits, '.', '_' and '-' of s (others become one
// '-'), at most 40 bytes.
func fileWord(s string) string {
	var b strings.Builder
	lastDash := true
	for _, r := range strings.TrimSpace(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_':
			b.WriteRune(r)
			lastDash = false
		case !lastDash:
			b.WriteByte('-')
			lastDash = true
		}
		if b.Len() >= 40 {
			break
		}
	}
	return strings.Trim(b.String(), "-.")
}

// quoteArgs writes a command line as a POSIX shell would read it back.
func quoteArgs(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		parts[i] = shellQuote(a)
	}
	return strings.Join(parts, " ")
}

func shellQuote(s string) string {
	if s == "" {
		return "''"
	}
	safe := true
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./=:,+@%", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
