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
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/textfmt"
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
	return runCommand(ctx, f, options{interval: defaultInterval, argv: argv, prepare: prepare})
}

// runCommand runs opts.argv under monitoring and writes its result.
func runCommand(ctx context.Context, f *cmdutil.Factory, opts options) error {
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
	if opts.cpus != "" {
		if pin, err = cpu.ParseSelection(opts.cpus, allowed); err != nil {
			return cmdutil.Usagef("--cpus %q: %v", opts.cpus, err)
		}
	}
	if _, err := exec.LookPath(opts.argv[0]); err != nil {
		return startError(opts.argv[0], err)
	}

	in := inventory.Collect(h, inventory.Options{Redact: true})
	mcfg := monitor.ConfigFor(h, in)
	mcfg.Interval = opts.interval
	started := time.Now()
	path := opts.output
	if path == "" {
		path = defaultOutput(h, in, started)
	}
	title := quoteArgs(opts.argv)
	cpus := pin
	if cpus == nil {
		cpus = allowed
	}
	optMap := map[string]any{
		"command":    opts.argv,
		"cpus":       nil,
		"interval_s": opts.interval.Seconds(),
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
	prom, err := listenPrometheus(opts.prometheus, f.IO.ErrOut)
	if err != nil {
		return err
	}
	var exit proc.Exit
	var startErr error
	var phase result.Phase
	step := session.Step{Name: result.PhaseCommand, Title: title, CPUs: cpus,
		Run: func(ctx context.Context, p *result.Phase) error {
			// On a terminal the command's standard output is a
			// pseudo-terminal, so that it streams as it would there.
			spec := proc.Spec{
				Argv:         opts.argv,
				CPUs:         pin,
				UserCommand:  true,
				Stdout:       f.IO.RawOut(),
				Stderr:       f.IO.RawErrOut(),
				CaptureLimit: CaptureLimit,
				PTY:          f.IO.IsStdoutTTY(),
				PTYSize:      windowSize(f.IO.Out),
			}
			handle, err := proc.Start(ctx, spec)
			if errors.Is(err, proc.ErrPTY) {
				p.Notes = append(p.Notes, "the command wrote to a pipe, not a terminal: "+err.Error())
				spec.PTY = false
				handle, err = proc.Start(ctx, spec)
			}
			if err != nil {
				startErr = err
				if ctx.Err() == nil {
					p.Status, p.Reason = result.PhaseFailed, "could not start: "+err.Error()
				}
				return err
			}
			var waitErr error
			exit, waitErr = handle.Wait()
			code := exit.Code
			p.ExitStatus = &code
			out, total := handle.Output()
			p.RawOutput = string(out)
			if total > int64(len(out)) {
				p.Notes = append(p.Notes, fmt.Sprintf("raw_output keeps the last %s of %s of output",
					textfmt.Bytes(int64(len(out))), textfmt.Bytes(total)))
			}
			if waitErr != nil {
				p.Notes = append(p.Notes, "output may be incomplete: "+waitErr.Error())
			}
			if exit.Stray > 0 {
				p.Notes = append(p.Notes, strayNote(exit.Stray))
			}
			addWrappedFigures(p, opts.argv, out, total > int64(len(out)))
			switch {
			case exit.Canceled:
				// The session records the interruption.
			case exit.Signal != "":
				p.Status, p.Reason = result.PhaseFailed, "killed by "+exit.Signal
			case exit.Code != 0:
				p.Status, p.Reason = result.PhaseFailed, fmt.Sprintf("exited with status %d", exit.Code)
			default:
				p.Status = result.PhaseOK
			}
			return nil
		}}
	cfg := session.Config{
		Host: h, Info: in, Command: "monitor", Options: optMap, Path: path,
		Interval: opts.interval, Monitor: &mcfg, Warn: f.IO.ErrOut, Power: opts.power, Keep: f.Keep,
		OnSample: func(smp monitor.Sample) {
			prom.sampled(ctx)
			fmt.Fprintln(liveOut, "boardbench: "+monitor.Line(*liveCols.Load(), smp))
		},
		Findings: wrappedFindings,
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
		if opts.prepare != nil {
			if err := opts.prepare(ctx, sess); err != nil {
				return nil, err
			}
		}
		pinned := ""
		if pin != nil {
			pinned = " on cpu" + cpu.FormatCPUList(pin)
		}
		fmt.Fprintf(f.IO.ErrOut, "boardbench: running %s%s, sampling every %s s; result: %s\n",
			title, pinned, trimFloat(opts.interval.Seconds()), path)
		fmt.Fprintln(liveOut, "boardbench: "+monitor.Header(cols))
		return []session.Step{step}, nil
	}
	end := func(sess *session.Session) session.End {
		res := sess.Result()
		if len(res.Phases) > 0 && res.Phases[0].Status == result.PhaseInterrupted && exit.Signal != "" {
			res.Phases[0].Reason = "interrupted by " + interrupt.Name(ctx) + "; the command's process group was stopped (" + exit.Signal + ")"
		}
		switch {
		case ctx.Err() != nil:
			return session.End{}
		case startErr != nil:
			return session.End{Failed: true, Verdict: "command could not be started", Err: startError(opts.argv[0], startErr)}
		case exit.Signal != "":
			return session.End{Verdict: fmt.Sprintf("command failed (killed by %s)", exit.Signal),
				Err: &ExitStatusError{Code: exit.Code, Msg: fmt.Sprintf("%s was killed by %s", opts.argv[0], exit.Signal), Reported: true}}
		case exit.Code != 0:
			return session.End{Verdict: fmt.Sprintf("command failed (status %d)", exit.Code),
				Err: &ExitStatusError{Code: exit.Code, Msg: fmt.Sprintf("%s exited with status %d", opts.argv[0], exit.Code), Reported: true}}
		}
		return session.End{}
	}
	_, err = session.Measure(ctx, cfg, session.Plan{Prepare: prepare, End: end})
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

// startError reports a command that could not be started with the exit
// status a shell would give: 127 not found, 126 not executable.
func startError(name string, err error) error {
	code := proc.StartStatus(err)
	var msg string
	switch code {
	case 127:
		msg = name + ": command not found"
	case 126:
		msg = name + ": cannot be executed (permission denied or not a program)"
	default:
		return fmt.Errorf("%s: %v", name, err)
	}
	return &ExitStatusError{Code: code, Msg: msg}
}

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
