// Package session runs a measuring session, the one lifecycle behind every
// command that measures (run, monitor -- COMMAND, mem, clock, c2c and the
// commands to come): a plan of steps, each run under the background monitor
// with its evidence kept (samples, cpufreq time-in-state, swap counters,
// kernel-log events, firmware throttling flags), a result file saved
// atomically after every step, skipped steps with their reason,
// interruption by a signal recorded once (the running step's children are
// stopped through its context, the status becomes "interrupted" and the
// command exits 130), findings through package check, the verdict, the
// summary and the final save.
//
// A command builds a Config, calls Start, runs its Steps with Run (or Step
// one at a time) and ends with Finish. What it changed on the machine is
// restored by the command's own guard before Finish, which records whether
// that worked. See docs/architecture.md for an example.
package session

import (
	"context"
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
	"boardbench/internal/monitor"
	"boardbench/internal/power"
	"boardbench/internal/proc"
	"boardbench/internal/result"
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

// Progress shows the plan's progress; package progress-like views implement
// it. Step indexes are positions in the slice given to Plan.
type Progress interface {
	Plan(steps []Step)
	Begin(i int)
	End(i int, d time.Duration, status, reason string)
	Skip(i int)
	Done()
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
	// Progress shows the plan's progress; nil for none.
	Progress Progress
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
	// the results store besides its file; nil means the Keeper the
	// context given to Finish carries (WithKeeper: the root command sets
	// it from --store/--no-store), and no store when it carries none. A
	// failure is one warning line on Warn: the result file is never lost
	// for it.
	Keep Keeper
}

// Keeper saves a finished result document (the JSON of the result file)
// to a results store and returns its id there.
type Keeper func(ctx context.Context, doc []byte) (id string, err error)

// keeperKey is the context key of the Keeper.
type keeperKey struct{}

// WithKeeper returns ctx carrying k, the Keeper of sessions whose Config
// has none.
func WithKeeper(ctx context.Context, k Keeper) context.Context {
	return context.WithValue(ctx, keeperKey{}, k)
}

// KeeperFrom returns the Keeper ctx carries, nil when none.
func KeeperFrom(ctx context.Context) Keeper {
	k, _ := ctx.Value(keeperKey{}).(Keeper)
	return k
}

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
	meter, err := power.Start(ctx, cfg.Host, cfg.Info, cfg.Power.Spec, cfg.Warn)
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
	mi := result.MonitorInfo{Policies: cfg.Policies, TempLabel: cfg.TempLabel, Power: cfg.Power, Firmware: cfg.Firmware != nil, Steal: cfg.Steal}
	if mi.Policies == nil {
		mi.Policies = []monitor.Policy{}
	}
	if mi.Power == nil {
		mi.Power = []monitor.Sensor{}
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
	if s.cfg.Progress != nil {
		s.cfg.Progress.Plan(steps)
	}
	for i, st := range steps {
		if ctx.Err() != nil {
			break
		}
		s.Step(ctx, i, st)
	}
	if s.cfg.Progress != nil {
		s.cfg.Progress.Done()
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
		p.Samples = []monitor.Sample{}
		s.record(p)
		if s.cfg.Progress != nil {
			s.cfg.Progress.Skip(i)
		}
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
	if s.cfg.Progress != nil {
		s.cfg.Progress.Begin(i)
	}
	var err error
	if st.Run != nil {
		// The programs the step starts are its work for the monitor.
		err = st.Run(proc.WithObserver(ctx, s.mon), &p)
	}
	notes := p.Notes
	endCtx, cancel := context.WithTimeout(bg, EvidenceTimeout)
	p.Evidence = w.End(endCtx)
	cancel()
	p.Notes = append(p.Notes, notes...)
	if p.Samples == nil {
		p.Samples = []monitor.Sample{}
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
	if s.cfg.Progress != nil {
		s.cfg.Progress.End(i, end.Sub(start), p.Status, p.Reason)
	}
	return p
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
	// saved there (no store, or a failure the warning line told).
	StoreID string
	// Signal names the interrupting signal; "" when not interrupted.
	Signal string
}

// Finish stops the monitor, sets the status, validates (findings and
// verdict), and saves the result a last time. When the file cannot be
// written, the result goes to a fallback file in the temporary directory
// and Outcome says where; the error is then an *ErrSave. An interrupted
// session returns *InterruptedError.
func (s *Session) Finish(ctx context.Context, end End) (*Outcome, error) {
	s.stopMon()
	<-s.monDone
	s.stopPower()
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
	out.StoreID = s.keep(ctx)
	switch {
	case out.SaveErr != nil:
		return out, &ErrSave{Path: s.cfg.Path, Err: out.SaveErr, Fallback: out.Path, Interrupted: out.Signal}
	case interrupted:
		return out, &InterruptedError{Signal: out.Signal}
	}
	return out, nil
}

// keep saves the finished result to the store, if any, and returns its id
// there; a failure is a warning line.
func (s *Session) keep(ctx context.Context) string {
	k := s.cfg.Keep
	if k == nil {
		k = KeeperFrom(ctx)
	}
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
	fs := check.Run(s.res, facts)
	if s.cfg.Findings != nil {
		fs = append(fs, s.cfg.Findings(s.res)...)
	}
	slices.SortStableFunc(fs, func(a, b finding.Finding) int { return b.Severity.Rank() - a.Severity.Rank() })
	if fs == nil {
		fs = []finding.Finding{}
	}
	s.refreshSummary()
	s.res.Findings = fs
	s.res.Summary.Valid, s.res.Summary.Verdict = check.Verdict(fs)
	if end.Verdict != "" {
		s.res.Summary.Valid = false
		s.res.Summary.Verdict = end.Verdict
	}
	if s.res.Status == result.StatusInterrupted {
		s.res.Summary.Verdict = "interrupted: only the finished phases have figures; " + s.res.Summary.Verdict
	}
}

// InterruptedError reports a session stopped by a signal.
type InterruptedError struct{ Signal string }

// Error names the signal.
func (e *InterruptedError) Error() string { return "interrupted by " + e.Signal }

// ExitCode is 130, the status of an interrupted command.
func (e *InterruptedError) ExitCode() int { return 130 }

// Announce writes one line saying where the result was written, when it
// was written to the configured file ("boardbench mem: result written to
// F (status complete)").
func (o *Outcome) Announce(w io.Writer, command string) {
	if o.Path != "" && o.SaveErr == nil {
		fmt.Fprintf(w, "boardbench %s: result written to %s (status %s)\n", command, o.Path, o.Result.Status)
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
