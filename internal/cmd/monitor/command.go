package monitor

import (
	"context"
	"fmt"
	"math"
	"os/exec"
	"strings"
	"time"

	"boardbench/internal/check"
	"boardbench/internal/cmdutil"
	"boardbench/internal/finding"
	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/monitor"
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// endTimeout bounds the evidence gathering after the command (kernel log,
// firmware flags), which must work even after Ctrl-C.
const endTimeout = 20 * time.Second

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
	cfg := monitor.ConfigFor(h, in)
	cfg.Interval = opts.interval
	m := monitor.New(h, cfg)
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
	res := result.New("monitor", in, optMap)
	res.Monitor = monitorInfo(cfg)
	if err := result.Save(path, res); err != nil {
		return fmt.Errorf("cannot write the result: %v", err)
	}
	pinned := ""
	if pin != nil {
		pinned = " on cpu" + cpu.FormatCPUList(pin)
	}
	fmt.Fprintf(f.IO.ErrOut, "boardbench: running %s%s, sampling every %s s; result: %s\n",
		title, pinned, trimFloat(opts.interval.Seconds()), path)

	before := cpu.OnlineCPUs(h)
	phase := result.Phase{Name: result.PhaseCommand, Title: title, CPUs: cpus, StartedAt: time.Now().UTC()}
	w := m.Begin(ctx, result.PhaseCommand)
	monCtx, stopMonitor := context.WithCancel(ctx)
	monitorDone := make(chan struct{})
	go func() { defer close(monitorDone); m.Run(monCtx, nil) }()

	handle, startErr := proc.Start(ctx, proc.Spec{
		Argv:         opts.argv,
		CPUs:         pin,
		Stdout:       f.IO.Out,
		Stderr:       f.IO.ErrOut,
		CaptureLimit: CaptureLimit,
	})
	var exit proc.Exit
	var waitErr error
	if startErr == nil {
		exit, waitErr = handle.Wait()
	}
	stopMonitor()
	<-monitorDone
	endCtx, cancelEnd := context.WithTimeout(context.WithoutCancel(ctx), endTimeout)
	defer cancelEnd()
	phase.Evidence = w.End(endCtx)
	after := cpu.OnlineCPUs(h)
	ended := time.Now().UTC()
	phase.EndedAt = &ended
	phase.DurationS = math.Round(ended.Sub(phase.StartedAt).Seconds()*100) / 100

	interrupted := exit.Canceled || startErr != nil && ctx.Err() != nil
	sig := signalName(ctx)
	switch {
	case interrupted:
		phase.Status = result.PhaseInterrupted
		phase.Reason = "interrupted by " + sig
		if exit.Signal != "" {
			phase.Reason += "; the command's process group was stopped (" + exit.Signal + ")"
		}
	case startErr != nil:
		phase.Status = result.PhaseFailed
		phase.Reason = "could not start: " + startErr.Error()
	case exit.Signal != "":
		phase.Status = result.PhaseFailed
		phase.Reason = "killed by " + exit.Signal
	case exit.Code != 0:
		phase.Status = result.PhaseFailed
		phase.Reason = fmt.Sprintf("exited with status %d", exit.Code)
	default:
		phase.Status = result.PhaseOK
	}
	if startErr == nil {
		code := exit.Code
		phase.ExitStatus = &code
		out, total := handle.Output()
		phase.RawOutput = string(out)
		if total > int64(len(out)) {
			phase.Notes = append(phase.Notes, fmt.Sprintf("raw_output keeps the last %s of %s of output",
				textfmt.Bytes(int64(len(out))), textfmt.Bytes(total)))
		}
		if waitErr != nil {
			phase.Notes = append(phase.Notes, "output may be incomplete: "+waitErr.Error())
		}
	}
	res.Phases = append(res.Phases, phase)
	res.Findings = check.Run(res, check.FactsFromInfo(in, before, after))
	if res.Findings == nil {
		res.Findings = []finding.Finding{}
	}
	res.Summary.Valid, res.Summary.Verdict = check.Verdict(res.Findings)
	res.FinishedAt = &ended
	switch {
	case interrupted:
		res.Status = result.StatusInterrupted
	case startErr != nil:
		res.Status = result.StatusFailed
	default:
		res.Status = result.StatusComplete
	}
	saveErr := result.Save(path, res)
	writeSummary(f.IO.ErrOut, res, phase, cfg, path)

	switch {
	case saveErr != nil:
		return fmt.Errorf("cannot write the result: %v", saveErr)
	case interrupted:
		return &cmdutil.InterruptedError{Signal: sig}
	case startErr != nil:
		return startError(opts.argv[0], startErr)
	case exit.Signal != "":
		return &ExitStatusError{Code: exit.Code, Msg: fmt.Sprintf("%s was killed by %s", opts.argv[0], exit.Signal)}
	case exit.Code != 0:
		return &ExitStatusError{Code: exit.Code, Msg: fmt.Sprintf("%s exited with status %d", opts.argv[0], exit.Code)}
	}
	return nil
}

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

// signalName names the signal that cancelled ctx, for messages.
func signalName(ctx context.Context) string {
	cause := context.Cause(ctx)
	switch {
	case cause == nil:
		return "a signal"
	case strings.Contains(cause.Error(), "interrupt"):
		return "SIGINT"
	case strings.Contains(cause.Error(), "terminated"):
		return "SIGTERM"
	default:
		return "a signal"
	}
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
