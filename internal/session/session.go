// Package session is the engine of every measuring command (run,
// monitor -- COMMAND, mem, clock, c2c, storage, writes, net, sweep,
// thermal, review --apply -- COMMAND). A command is its options plus a
// plan of steps; the engine owns the whole life of the measurement:
//
//   - the result file, saved atomically before the first step and after
//     every step (a fallback file when it cannot be written);
//   - each step under the background monitor, with its evidence kept
//     (samples, cpufreq time-in-state, swap counters, kernel-log events,
//     firmware throttling flags), skipped steps with their reason;
//   - the one tuning guard (Session.Tune, through package tune), restored
//     at the end on every exit path, with the outcome recorded;
//   - the progress of the plan on the command's one iostreams.Status;
//   - interruption: one cancellation (internal/interrupt) stops the
//     running step's children, marks the result interrupted and ends the
//     command with *interrupt.Error (exit status 130);
//   - the checks (package check plus the command's own findings), the
//     verdict and the final save;
//   - the end of the command: the figures and the verdict printed
//     (Printer), the line saying where the result went, the result kept
//     in the store when something was measured, and the exit status
//     (3, *NotValidError, for a result whose verdict is not valid).
//
// A command calls Measure with a Config and a Plan. See
// docs/architecture.md for an example.
package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"boardbench/internal/check"
	"boardbench/internal/finding"
	"boardbench/internal/host"
	"boardbench/internal/interrupt"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/iostreams"
	"boardbench/internal/monitor"
	"boardbench/internal/power"
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/tune"
)

// Step is one step of a plan: a phase of the result.
type Step struct {
	// Name is the phase name (result.Phase*), Title its description.
	Name, Title string
	// CPUs are the CPUs the step will use, when known in advance.
	CPUs []int
	// Kind groups steps whose time estimates scale together ("7zip",
	// "memory"...), for the progress display; "" for none.
	Kind string
	// Estimate is the expected duration; it also sets the monitor's
	// sampling interval for the step.
	Estimate time.Duration
	// Skip, when set, records the step as skipped for this reason.
	Skip string
	// Run measures and fills the phase (figures, raw output, CPUs, notes);
	// it may set Status and Reason itself. Its error fails the phase. It
	// must stop when ctx is done.
	Run func(ctx context.Context, p *result.Phase) error
}

// Config is what a session needs from its command.
type Config struct {
	// Host is the machine (the live system, or a fixture in tests).
	Host *host.Host
	// Info is the description of the machine at the start.
	Info *inventory.Info
	// Command names the command in the result ("run", "monitor", "mem",
	// "clock", "c2c"...).
	Command string
	// Options are the command-line options that shaped the session.
	Options map[string]any
	// Path is the result file; "" keeps the result in memory only.
	Path string
	// Interval fixes the monitor's sampling interval; 0 adapts it to each
	// step's estimate.
	Interval time.Duration
	// Monitor is the sampler's configuration; nil means
	// monitor.ConfigFor(Host, Info).
	Monitor *monitor.Config
	// OnSample is called with every sample the monitor takes (live lines);
	// nil for none.
	OnSample func(monitor.Sample)
	// Status is the command's one status line: the engine shows the
	// plan's progress on it (Plan, Begin, End, Skip) and closes it before
	// printing the outcome; the steps may add details (Detail, Show,
	// Advance). nil shows nothing.
	Status *iostreams.Status
	// Print prints the outcome at the end (the figures and the verdict).
	Print Printer
	// Warn receives one line when a save fails (standard error); nil
	// discards it.
	Warn io.Writer
	// Summarize computes the headline figures from the phases after every
	// step; nil means result.BuildSummary.
	Summarize func([]result.Phase) result.Summary
	// Facts adds what the check rules need beyond the machine description
	// (governors, tuning, measured clocks); nil uses the description only.
	Facts func(check.Facts) check.Facts
	// Findings returns the command's own findings (idle gate, tools,
	// pinning...) at the end; nil for none.
	Findings func(*result.Result) []finding.Finding
	// Now returns the time; nil means time.Now.
	Now func() time.Time
	// Power is the power source and idle baseline (power.AddFlags); the
	// zero value chooses a board-level sensor when there is one, without
	// a baseline.
	Power power.Options
	// Keep saves the finished result (complete, failed or interrupted) to
	// the results store besides its file; nil saves it to no store. A
	// measuring command passes the Keeper its root command chose from
	// --store/--no-store (cmdutil.Factory.Keep). A failure is one warning
	// line on Warn: the result file is never lost for it.
	Keep Keeper
	// NoKeep keeps the result out of the store whatever Keep is (a
	// command run on a fixture root that measures nothing of a machine).
	NoKeep bool
}

// Keeper saves a finished result document (the JSON of the result file)
// to a results store and returns its id there.
type Keeper func(ctx context.Context, doc []byte) (id string, err error)

// KeepTimeout bounds saving to the store at the end of a session, which
// must work after Ctrl-C too.
const KeepTimeout = time.Minute

// Session is one measuring session in progress.
type Session struct {
	cfg          Config
	res          *result.Result
	mon          *monitor.Monitor
	stopMon      context.CancelFunc
	monDone      chan struct{}
	now          func() time.Time
	onlineBefore []int
	saveErr      error
	steps        []Step
	stepIndex    int
	baselineDone bool
	// guard is the tuning guard (Tune); nil until a step tunes.
	guard    *tune.Guard
	guardCtx context.Context
	// tuneFindings are the engine's own findings about tuning (a
	// restore that failed).
	tuneFindings []finding.Finding
}

// Start creates the result (status running), saves it a first time — a
// result file that cannot be written is an error before anything is
// measured — and starts the monitor.
func Start(ctx context.Context, cfg Config) (*Session, error) {
	if cfg.Host == nil || cfg.Info == nil {
		return nil, fmt.Errorf("session: no host or machine description")
	}
	if cfg.Summarize == nil {
		cfg.Summarize = result.BuildSummary
	}
	s := &Session{cfg: cfg, now: cfg.Now}
	if s.now == nil {
		s.now = time.Now
	}
	opts := cfg.Options
	if opts == nil {
		opts = map[string]any{}
	}
	s.res = result.New(cfg.Command, cfg.Info, opts)
	s.res.StartedAt = s.now().UTC()
	s.res.Tools = []result.ToolVersion{}
	s.res.Tuning.Changed = []string{}
	mcfg := monitor.ConfigFor(cfg.Host, cfg.Info)
	if cfg.Monitor != nil {
		mcfg = *cfg.Monitor
	}
	if cfg.Interval > 0 {
		mcfg.Interval = cfg.Interval
	} else if mcfg.Interval <= 0 {
		mcfg.Interval = 2 * time.Second
	}
	meter, err := power.StartClock(ctx, cfg.Host, cfg.Info, cfg.Power.Spec, cfg.Power.Clock, cfg.Warn)
	if err != nil {
		return nil, err
	}
	if meter != nil {
		mcfg.Meter = meter
		s.res.Power = PowerResult(meter)
	}
	s.res.Monitor = MonitorInfo(mcfg)
	if !cfg.Info.Redacted {
		s.res.Host = hostname(cfg.Host)
	}
	if !cfg.Host.Live() {
		// A recorded root: a replay, kept in the store as kind replay.
		s.res.Replay = true
	}
	if cfg.Path != "" {
		if err := result.Save(cfg.Path, s.res); err != nil {
			if meter != nil {
				meter.Stop()
			}
			return nil, fmt.Errorf("cannot write the result file: %w", err)
		}
	}
	s.onlineBefore = cpu.OnlineCPUs(cfg.Host)
	s.mon = monitor.New(cfg.Host, mcfg)
	if cfg.Host.Live() {
		// In-process measurements (clock, memory) are boardbench's own work.
		s.mon.WatchSelf(os.Getpid())
	}
	mctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s.stopMon = cancel
	s.monDone = make(chan struct{})
	go func() { defer close(s.monDone); s.mon.Run(mctx, cfg.OnSample) }()
	return s, nil
}

// MonitorInfo describes the sampled columns of cfg for a result.
func MonitorInfo(cfg monitor.Config) result.MonitorInfo {
	mi := result.MonitorInfo{Policies: monitor.ResultPolicies(cfg.Policies), TempLabel: cfg.TempLabel,
		Power: monitor.ResultSensors(cfg.Power), Firmware: cfg.Firmware != nil, Steal: cfg.Steal, Temps: monitor.ResultSensors(cfg.Temps),
		MemClock: cfg.MemClockLabel}
	if mi.Policies == nil {
		mi.Policies = []result.Policy{}
	}
	if mi.Power == nil {
		mi.Power = []result.Sensor{}
	}
	return mi
}

// Result returns the result being built; commands add tools, tuning and
// options to it.
func (s *Session) Result() *result.Result { return s.res }

// Monitor returns the background sampler (for live status lines).
func (s *Session) Monitor() *monitor.Monitor { return s.mon }

// Path returns the result file ("" when kept in memory).
func (s *Session) Path() string { return s.cfg.Path }

// OnlineBefore returns the CPUs online when the session started (nil when
// the kernel does not say).
func (s *Session) OnlineBefore() []int { return s.onlineBefore }

// Save writes the result file atomically. The first failure is reported on
// Warn when it happens and kept: Finish tries again and, failing that,
// writes the result elsewhere.
func (s *Session) Save() {
	if s.cfg.Path == "" {
		return
	}
	err := result.Save(s.cfg.Path, s.res)
	if err != nil && s.saveErr == nil && s.cfg.Warn != nil {
		fmt.Fprintf(s.cfg.Warn, "boardbench: cannot save the result to %s: %v; the figures are kept and written at the end\n", s.cfg.Path, err)
	}
	if err != nil && s.saveErr == nil {
		s.saveErr = err
	}
}

// Run runs the steps in order under the monitor, stopping before the next
// step once ctx is done.
func (s *Session) Run(ctx context.Context, steps []Step) {
	s.steps = steps
	if st := s.cfg.Status; st != nil {
		plan := make([]iostreams.Step, len(steps))
		for i, s := range steps {
			plan[i] = iostreams.Step{Title: s.Title, Kind: s.Kind, Estimate: s.Estimate}
		}
		st.Plan(plan)
	}
	for i, st := range steps {
		if ctx.Err() != nil {
			break
		}
		s.Step(ctx, i, st)
	}
	if s.cfg.Status != nil {
		s.cfg.Status.Clear()
	}
}

// Step runs one step (i is its index for the progress display), records
// its phase with the evidence of its monitor window, and saves the result.
// It returns the recorded phase.
func (s *Session) Step(ctx context.Context, i int, st Step) result.Phase {
	start := s.now()
	p := result.Phase{Name: st.Name, Title: st.Title, CPUs: append([]int{}, st.CPUs...), StartedAt: start.UTC()}
	if st.Skip != "" {
		p.Status, p.Reason = result.PhaseSkipped, st.Skip
		p.EndedAt = &p.StartedAt
		p.Samples = []result.Sample{}
		s.record(p)
		s.showSkip(i)
		return p
	}
	if !s.baselineDone {
		s.idleBaseline(ctx)
	}
	if s.cfg.Interval <= 0 {
		s.mon.SetInterval(monitor.IntervalFor(st.Estimate))
	}
	bg := context.WithoutCancel(ctx)
	w := s.mon.Begin(bg, st.Name)
	if s.cfg.Status != nil {
		s.cfg.Status.Begin(i)
	}
	var err error
	if st.Run != nil {
		// The programs the step starts are its work for the monitor.
		err = st.Run(proc.WithObserver(ctx, s.mon), &p)
	}
	notes := p.Notes
	endCtx, cancel := context.WithTimeout(bg, EvidenceTimeout)
	p.Evidence = w.End(endCtx).ToResult()
	cancel()
	p.Notes = append(p.Notes, notes...)
	if p.Samples == nil {
		p.Samples = []result.Sample{}
	}
	end := s.now()
	endUTC := end.UTC()
	p.EndedAt = &endUTC
	p.DurationS = math.Round(end.Sub(start).Seconds()*100) / 100
	switch {
	case ctx.Err() != nil && p.Status != result.PhaseOK:
		p.Status = result.PhaseInterrupted
		p.Reason = InterruptedReason(ctx)
	case p.Status != "":
	case err != nil:
		p.Status, p.Reason = result.PhaseFailed, err.Error()
	default:
		p.Status = result.PhaseOK
	}
	if p.CPUs == nil {
		p.CPUs = []int{}
	}
	s.record(p)
	s.showEnd(i, end.Sub(start), p.Status, p.Reason)
	return p
}

// showEnd tells the status line that step i took d and ended with status:
// on a pipe (a status writing plain lines) "done in …", and everywhere a
// line for a step that did not end ok.
func (s *Session) showEnd(i int, d time.Duration, status, reason string) {
	st := s.cfg.Status
	if st == nil {
		return
	}
	st.End(i, d)
	n, title := st.Steps(i)
	if n == 0 {
		return
	}
	switch {
	case status == result.PhaseOK && st.Plain():
		st.Line("      done in %.1f s", d.Seconds())
	case status != result.PhaseOK:
		msg := fmt.Sprintf("%s after %.1f s", status, d.Seconds())
		if reason != "" {
			msg += ": " + reason
		}
		if st.TTY() {
			st.Line("[%d/%d] %s: %s", i+1, n, title, msg)
		} else if st.Plain() {
			st.Line("      %s", msg)
		}
	}
}

// showSkip tells the status line that step i was skipped.
func (s *Session) showSkip(i int) {
	st := s.cfg.Status
	if st == nil {
		return
	}
	st.Skip(i)
	if n, title := st.Steps(i); n > 0 && st.Plain() {
		st.Line("[%d/%d] %s: skipped", i+1, n, title)
	}
}

// Status returns the command's status line (nil when it has none), for
// the details a step shows while it runs.
func (s *Session) Status() *iostreams.Status { return s.cfg.Status }

// Tune returns the session's tuning guard, creating it through
// tune.NewGuard (with opts) on the first call: the one way a measuring
// command changes the machine. The engine closes the guard at the end on
// every exit path — before the checks, so that the result says whether
// every change was written back — and a signal restores at once (the
// guard watches ctx). The returned context is the guard's, done once it
// has restored. A later call returns the same guard (opts are then
// ignored).
func (s *Session) Tune(ctx context.Context, opts ...tune.Option) (*tune.Guard, context.Context, error) {
	if s.guard != nil {
		return s.guard, s.guardCtx, nil
	}
	g, gctx, err := tune.NewGuard(ctx, s.cfg.Host, opts...)
	if err != nil {
		return nil, nil, err
	}
	s.guard, s.guardCtx = g, gctx
	return g, gctx, nil
}

// restore closes the tuning guard, records whether everything went back
// and, when not, a finding.
func (s *Session) restore() {
	if s.guard == nil {
		return
	}
	err := s.guard.Close()
	s.res.Tuning.Restored = err == nil
	if err != nil {
		s.tuneFindings = append(s.tuneFindings, check.RestoreFailed(err))
	}
}

// EvidenceTimeout bounds the evidence gathering at the end of a step
// (kernel log, firmware flags), which must work even after Ctrl-C.
const EvidenceTimeout = 20 * time.Second

// InterruptedReason is the reason recorded for the step that a signal
// stopped, the same for every command.
func InterruptedReason(ctx context.Context) string {
	return "interrupted by " + interrupt.Name(ctx) + "; the running benchmark was stopped"
}

// record appends a phase, refreshes the summary and saves.
func (s *Session) record(p result.Phase) {
	s.res.Phases = append(s.res.Phases, p)
	s.refreshSummary()
	s.Save()
}

// refreshSummary recomputes the headline figures, keeping the verdict.
func (s *Session) refreshSummary() {
	if s.cfg.Summarize == nil {
		return
	}
	valid, verdict := s.res.Summary.Valid, s.res.Summary.Verdict
	s.res.Summary = s.cfg.Summarize(s.res.Phases)
	s.res.Summary.Valid, s.res.Summary.Verdict = valid, verdict
}

// End says how the command ended, for Finish.
type End struct {
	// Failed marks a session that could not do its work (status failed),
	// e.g. a command that could not be started.
	Failed bool
	// Verdict replaces the verdict when set (e.g. "command failed (status
	// 3)").
	Verdict string
	// Err is the command's own error, returned by Finish after the
	// outcome is printed (unless an interruption or a failed save takes
	// precedence): e.g. the status of a command run under monitor.
	Err error
}

// Outcome is what a finished session leaves.
type Outcome struct {
	Result *result.Result
	// Path is where the result was written: the configured file, or the
	// fallback when that could not be written; "" when it was not written.
	Path string
	// SaveErr says why the configured file could not be written (nil when
	// it was).
	SaveErr error
	// StoreID is the result's id in the results store; "" when it was not
	// saved there (no store, nothing measured, or a failure the warning
	// line told).
	StoreID string
	// Signal names the interrupting signal; "" when not interrupted.
	Signal string
}

// Plan is what a command hands the engine: its steps, and what it does
// once the result exists but before the first step.
type Plan struct {
	// Prepare runs after the result file is first written and before the
	// steps: looking for tools, the idle gate, tuning (Session.Tune). It
	// returns the steps to run (nil: Steps). An error ends the session as
	// failed, with the error as the command's.
	Prepare func(ctx context.Context, s *Session) ([]Step, error)
	// Steps are the steps when Prepare is nil or returns none.
	Steps []Step
	// End says how the command ended once the steps ran (nil: End{}).
	End func(s *Session) End
}

// Measure runs a whole measurement: Start, the plan's Prepare and steps,
// and Finish (which restores what was tuned, runs the checks, saves,
// prints the outcome and returns the command's error). The Outcome is nil
// when nothing started (the error says why: e.g. the result file cannot
// be written).
func Measure(ctx context.Context, cfg Config, plan Plan) (*Outcome, error) {
	s, err := Start(ctx, cfg)
	if err != nil {
		if cfg.Status != nil {
			cfg.Status.Close()
		}
		return nil, err
	}
	steps := plan.Steps
	var end End
	if plan.Prepare != nil && ctx.Err() == nil {
		st, err := plan.Prepare(ctx, s)
		switch {
		case err != nil && ctx.Err() == nil:
			end = End{Failed: true, Err: err, Verdict: "not measured: " + err.Error()}
		case st != nil:
			steps = st
		}
	}
	if !end.Failed && ctx.Err() == nil {
		s.Run(ctx, steps)
	}
	if plan.End != nil && !end.Failed {
		end = plan.End(s)
	}
	if end == (End{}) && ctx.Err() == nil && len(s.res.Phases) > 0 && !Measured(s.res) {
		// Every step was skipped: no figure, so no verdict on figures.
		why := "nothing was measured: every step was skipped (" + skipReasons(s.res) + ")"
		end = End{Failed: true, Err: errors.New(why), Verdict: "not measured: " + why}
	}
	return s.Finish(ctx, end)
}

// skipReasons joins the distinct reasons the phases of r were skipped.
func skipReasons(r *result.Result) string {
	var out []string
	for _, p := range r.Phases {
		if p.Reason != "" && !slices.Contains(out, p.Reason) {
			out = append(out, p.Reason)
		}
	}
	if len(out) == 0 {
		return "no reason recorded"
	}
	return strings.Join(out, "; ")
}

// Finish ends the session on every exit path: it restores what was tuned,
// stops the monitor, sets the status, runs the checks (findings and
// verdict), saves the result a last time, keeps it in the store when
// something was measured, and prints the outcome (Config.Print). When the
// file cannot be written, the result goes to a fallback file in the
// temporary directory and Outcome says where. The error is the one the
// command ends with, in this order: *interrupt.Error (exit 130) for an
// interrupted session, *ErrSave (exit 1) for a result that could not be
// written where asked, End.Err, an error for a failed session, and
// *NotValidError (exit 3) for a result whose verdict is not valid.
func (s *Session) Finish(ctx context.Context, end End) (*Outcome, error) {
	s.restore()
	s.stopMon()
	<-s.monDone
	s.stopPower()
	if s.cfg.Status != nil {
		s.cfg.Status.Close()
	}
	out := &Outcome{Result: s.res, Signal: interrupt.Name(ctx)}
	interrupted := out.Signal != ""
	switch {
	case interrupted:
		s.res.Status = result.StatusInterrupted
	case end.Failed:
		s.res.Status = result.StatusFailed
	default:
		s.res.Status = result.StatusComplete
	}
	finished := s.now().UTC()
	s.res.FinishedAt = &finished
	s.validate(end)
	if s.cfg.Path != "" {
		s.saveErr = nil
		if err := result.Save(s.cfg.Path, s.res); err != nil {
			out.SaveErr = err
			out.Path = s.fallback()
		} else {
			out.Path = s.cfg.Path
		}
	}
	if Measured(s.res) && s.res.Status != result.StatusFailed && !s.cfg.NoKeep {
		out.StoreID = s.keep(ctx)
	}
	err := s.outcomeErr(out, end)
	s.cfg.Print.print(s.cfg.Command, out, err, s.cfg.Warn)
	return out, err
}

// outcomeErr is the error the command ends with (see Finish).
func (s *Session) outcomeErr(out *Outcome, end End) error {
	switch {
	case out.SaveErr != nil:
		return &ErrSave{Path: s.cfg.Path, Err: out.SaveErr, Fallback: out.Path, Interrupted: out.Signal}
	case out.Signal != "":
		return &interrupt.Error{Signal: out.Signal}
	case end.Err != nil:
		return end.Err
	case s.res.Status == result.StatusFailed:
		return fmt.Errorf("the measurement failed: %s", s.res.Summary.Verdict)
	case !s.res.Summary.Valid:
		return &NotValidError{Verdict: s.res.Summary.Verdict}
	}
	return nil
}

// Measured reports whether r holds a measurement: at least one phase that
// ran (not one skipped). A command that refused or failed before
// measuring leaves none. Only a measured result that did not fail
// (complete or interrupted) is kept in the store; its file is written
// all the same.
func Measured(r *result.Result) bool {
	for _, p := range r.Phases {
		if p.Status != result.PhaseSkipped {
			return true
		}
	}
	return false
}

// keep saves the finished result to the store, if any, and returns its id
// there; a failure is a warning line.
func (s *Session) keep(ctx context.Context) string {
	k := s.cfg.Keep
	if k == nil {
		return ""
	}
	doc, err := result.Marshal(s.res)
	if err == nil {
		kctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), KeepTimeout)
		defer cancel()
		var id string
		if id, err = k(kctx, doc); err == nil {
			return id
		}
	}
	if s.cfg.Warn != nil {
		fmt.Fprintf(s.cfg.Warn, "boardbench: warning: the result was not saved to the results store: %v\n", oneLine(err))
	}
	return ""
}

// oneLine keeps an error message on one line.
func oneLine(err error) string { return strings.ReplaceAll(err.Error(), "\n", " ") }

// hostname returns the machine's host name, "" when unknown.
func hostname(h *host.Host) string {
	for _, p := range []string{"/proc/sys/kernel/hostname", "/etc/hostname"} {
		if s, err := h.ReadString(p); err == nil && strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

// fallback writes the result to the temporary directory, then to the home
// directory; it returns the path written, "" when neither worked.
func (s *Session) fallback() string {
	base := filepath.Base(s.cfg.Path)
	dirs := []string{os.TempDir()}
	if home, err := os.UserHomeDir(); err == nil {
		dirs = append(dirs, home)
	}
	for _, d := range dirs {
		p := filepath.Join(d, base)
		if abs, err := filepath.Abs(s.cfg.Path); err == nil && abs == p {
			continue
		}
		if _, err := os.Lstat(p); err == nil {
			p = filepath.Join(d, fmt.Sprintf("%d-%s", os.Getpid(), base))
		}
		if result.Save(p, s.res) == nil {
			return p
		}
	}
	return ""
}

// validate runs the check rules and the command's own findings, sorts them
// by severity, and sets the verdict.
func (s *Session) validate(end End) {
	facts := check.FactsFromInfo(s.cfg.Info, s.onlineBefore, cpu.OnlineCPUs(s.cfg.Host))
	if s.cfg.Facts != nil {
		facts = s.cfg.Facts(facts)
	}
	check.Validate(s.res, facts, s.cfg.Summarize, func(r *result.Result) []finding.Finding {
		var fs []finding.Finding
		if s.cfg.Findings != nil {
			fs = s.cfg.Findings(r)
		}
		return append(fs, s.tuneFindings...)
	})
	if end.Verdict != "" {
		s.res.Summary.Valid = false
		s.res.Summary.Verdict = end.Verdict
	}
	if s.res.Status == result.StatusInterrupted {
		s.res.Summary.Verdict = "interrupted: only the finished phases have figures; " + s.res.Summary.Verdict
	}
}

// ErrSave reports a result file that could not be written at the end.
type ErrSave struct {
	Path string
	Err  error
	// Fallback is where the result was written instead ("" when nowhere).
	Fallback string
	// Interrupted names the signal when the session was interrupted too.
	Interrupted string
}

// Error says what failed and where the figures are.
func (e *ErrSave) Error() string {
	if e.Fallback != "" {
		return fmt.Sprintf("cannot write the result to %s (%v); it was written to %s instead", e.Path, e.Err, e.Fallback)
	}
	return fmt.Sprintf("cannot write the result to %s (%v), nor to a fallback file: the figures are only in this output", e.Path, e.Err)
}

// Unwrap returns the write error.
func (e *ErrSave) Unwrap() error { return e.Err }

// ExitCode is 130 when the session was interrupted too, else 1.
func (e *ErrSave) ExitCode() int {
	if e.Interrupted != "" {
		return 130
	}
	return 1
}

// CheckLeftovers returns an error when an earlier run left settings of
// root ("/" for the live machine) to restore, unless force is set; then it
// only warns on w. It looks in the state directory of root
// (tune.StateDirFor). command names the command in the error ("pass
// --force to sweep anyway").
func CheckLeftovers(w io.Writer, force bool, command, root string) error {
	left, _ := tune.Leftovers(tune.StateDirFor(root))
	if len(left) == 0 {
		return nil
	}
	if !force {
		return fmt.Errorf("%s first, or pass --force to %s anyway", tune.LeftoverLine(left), command)
	}
	if w != nil {
		fmt.Fprintf(w, "boardbench: %s (going on because of --force)\n", tune.LeftoverLine(left))
	}
	return nil
}
