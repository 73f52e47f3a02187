// Package sweeprun is the plan of `boardbench sweep`: for every cpufreq
// operating point of every cluster, highest first, it sets the clock,
// measures the real one, and runs 7-Zip single-threaded on one CPU of the
// cluster and multi-threaded on its CPUs, Options.Passes times each (one
// judged step per pass), recording MIPS, temperature, power and core
// voltage; the result's summary holds one row per clock and thread count,
// the mean of its undisturbed passes with their range. Every clock is
// restored on every exit path through the session's tune.Guard. The
// command (internal/cmd/sweep) only reads the flags and calls Run.
package sweeprun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"boardbench/internal/benchtool/sevenzip"
	"boardbench/internal/clockcheck"
	"boardbench/internal/cmdutil"
	"boardbench/internal/finding"
	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/iostreams"
	"boardbench/internal/power"
	"boardbench/internal/prepare"
	probeclock "boardbench/internal/probe/clock"
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/tools"
	"boardbench/internal/tune"
)

// Options are the user's choices.
type Options struct {
	// Output is the result file ("" keeps it in memory).
	Output string
	// Force skips the idle gate (recorded as a finding).
	Force bool
	// NoInstall forbids installing 7-Zip.
	NoInstall bool
	// Quick makes each 7-Zip run one short pass (b 1 -md18).
	Quick bool
	// Passes is how many times 7-Zip runs at each clock and thread count
	// (0: one; the command's default is DefaultPasses); the row is the
	// mean of the passes not disturbed, with their range.
	Passes int
	// AllCores runs the multi-threaded measurement on every usable CPU
	// instead of the cluster's.
	AllCores bool
	// Settle is the pause before each 7-Zip run.
	Settle time.Duration
	// IdleTimeout bounds the wait for a quiet machine.
	IdleTimeout time.Duration
	// Power is the power source and idle baseline (--power,
	// --idle-baseline): every row's watts and MIPS per watt come from it.
	Power power.Options
}

// Defaults.
const (
	DefaultSettle      = 5 * time.Second
	QuickSettle        = time.Second
	DefaultIdleTimeout = 60 * time.Second
	// DefaultPasses is the number of 7-Zip runs at each clock and thread
	// count, as a published clock sweep runs them ("3 times at each
	// clockspeed and report averages").
	DefaultPasses = 3
	// MaxPasses bounds --passes.
	MaxPasses = 100
)

// Config is what a sweep needs from the outside; tests replace the
// benchmark, the clock probe and the tool search to sweep a fixture root.
type Config struct {
	Host *host.Host
	// IsRoot says whether clocks may be set; nil asks Host.IsRoot().
	IsRoot *bool
	// Allowed are the CPUs this process may use; nil reads them.
	Allowed []int
	// Exec runs 7-Zip; nil means proc.ForHost(Host).
	Exec proc.Executor
	// Clock measures one CPU's clock; nil means the probe on the live
	// system and no measurement on a recorded root.
	Clock clockcheck.MeasureFunc
	// FindSevenZip finds (or installs) 7-Zip; nil means prepare.SevenZip.
	FindSevenZip func(ctx context.Context, h *host.Host, allowInstall bool) (*tools.Tool, *finding.Finding)
	// Status is the status line (the plan, the idle wait); nil for none.
	Status *iostreams.Status
	// Warn receives a line when a save fails; nil discards it.
	Warn io.Writer
	// Lock is the root's tuning lock, already held; the guard releases
	// it. nil: TakeLock takes it, or else the guard itself.
	Lock *tune.Lock
	// TakeLock takes the root's tuning lock once the sweep is known to
	// be possible here (after every refusal, so that a refused sweep
	// never waits for nor holds the lock); nil: Lock as it is.
	TakeLock func(ctx context.Context) (*tune.Lock, error)
	// Print prints the outcome; the zero value prints nothing.
	Print session.Printer
	// Keep saves the finished result to the results store; nil saves it
	// to none (session.Config.Keep).
	Keep session.Keeper
}

// point is one clock of one cluster to measure.
type point struct {
	cluster  int
	core     string
	policies []int // pinned together; empty without cpufreq
	khz      int64 // 0: the clock the machine runs at
	single   int   // CPU of the single-threaded run
	multi    []int // CPUs of the multi-threaded run
}

// sweeper is one sweep in progress.
type sweeper struct {
	cfg  Config
	opt  Options
	h    *host.Host
	info *inventory.Info
	tool *tools.Tool
	// guard is the session's tuning guard (nil when the clocks cannot be
	// set).
	guard    *tune.Guard
	findings []finding.Finding
}

// Run sweeps the clocks through the session engine. What cannot be swept
// here is refused before anything is measured or written, and before the
// tuning lock is taken (a usage error, exit status 2): a machine without
// cpufreq clocks to set, or not root.
// The Outcome is nil only when nothing started; the error then says why.
// Otherwise the result was written and printed (Config.Print), and the
// error is the command's (session.Finish).
func Run(ctx context.Context, cfg Config, opt Options) (*session.Outcome, error) {
	if cfg.Host == nil {
		return nil, errors.New("sweep: no host")
	}
	s := &sweeper{cfg: cfg, opt: opt, h: cfg.Host}
	if s.cfg.Exec == nil {
		s.cfg.Exec = proc.ForHost(s.h)
	}
	if s.cfg.Clock == nil && s.h.Live() {
		s.cfg.Clock = probeclock.Measure
	}
	if s.cfg.FindSevenZip == nil {
		s.cfg.FindSevenZip = prepare.SevenZip
	}
	if s.opt.Settle < 0 {
		s.opt.Settle = 0
	}
	isRoot := s.h.IsRoot()
	if cfg.IsRoot != nil {
		isRoot = *cfg.IsRoot
	}
	s.info = inventory.Collect(s.h, inventory.Options{Redact: true})
	allowed, err := prepare.AllowedCPUs(cfg.Allowed)
	if err != nil {
		return nil, err
	}
	points, cpufreq := s.plan(allowed)
	switch {
	case len(points) == 0:
		return nil, errors.New("no CPU of this machine is available to this process")
	case !cpufreq:
		return nil, cmdutil.Refusef("no cpufreq here: no cpufreq policy lists the clocks it offers, so there is no clock to set; `boardbench run` measures at the clock the board runs")
	case !isRoot:
		return nil, cmdutil.Refusef("sweep sets every cpufreq clock in turn, which needs root: run it with sudo (`boardbench run` measures at the clock the board runs)")
	}
	if cfg.TakeLock != nil {
		lock, err := cfg.TakeLock(ctx)
		if err != nil {
			return nil, err
		}
		defer lock.Release()
		s.cfg.Lock = lock
	}
	scfg := session.Config{
		Host: s.h, Info: s.info, Command: "sweep", Path: opt.Output, Warn: cfg.Warn, Status: cfg.Status, Print: cfg.Print, Keep: cfg.Keep,
		Options: map[string]any{
			"quick": opt.Quick, "passes": s.passes(), "all_cores": opt.AllCores, "force": opt.Force, "no_install": opt.NoInstall,
			"settle_s": s.opt.Settle.Seconds(), "idle_timeout_s": opt.IdleTimeout.Seconds(), "cpufreq": cpufreq,
		},
		Summarize: Summarize,
		Findings:  func(*result.Result) []finding.Finding { return s.findings },
		Power:     opt.Power,
	}
	return session.Measure(ctx, scfg, session.Plan{Prepare: func(ctx context.Context, sess *session.Session) ([]session.Step, error) {
		return s.prepare(ctx, sess, points)
	}})
}

// prepare finds 7-Zip, waits for a quiet machine and takes the session's
// tuning guard; it returns the steps.
func (s *sweeper) prepare(ctx context.Context, sess *session.Session, points []point) ([]session.Step, error) {
	res := sess.Result()
	tool, missing := s.cfg.FindSevenZip(ctx, s.h, !s.opt.NoInstall)
	if tool != nil {
		s.tool = tool
		res.Tools = append(res.Tools, prepare.ToolVersion(tool))
	} else if missing != nil {
		s.findings = append(s.findings, *missing)
		res.Tools = append(res.Tools, result.ToolVersion{Name: "7-Zip", Note: strings.Join(missing.Evidence, "; ")})
	}
	if ctx.Err() == nil {
		var show func(string)
		if s.cfg.Status != nil {
			show = s.cfg.Status.Show
		}
		if f := prepare.IdleGate(ctx, s.h, s.opt.Force, s.idleTimeout(), show); f != nil {
			s.findings = append(s.findings, *f)
		}
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if s.tool != nil {
		g, _, gerr := sess.Tune(ctx, tune.WithLock(s.cfg.Lock))
		if gerr != nil {
			res.Tuning.Note = "cannot set clocks: " + gerr.Error()
		} else {
			s.guard = g
		}
	}
	sess.Save()
	return s.steps(points, res), nil
}

// passes is the number of passes at each clock and thread count.
func (s *sweeper) passes() int {
	if s.opt.Passes <= 0 {
		return 1
	}
	return s.opt.Passes
}

func (s *sweeper) idleTimeout() time.Duration {
	if s.opt.IdleTimeout <= 0 {
		return DefaultIdleTimeout
	}
	return s.opt.IdleTimeout
}

// plan lists the points to measure: every OPP of every cluster, highest
// first, or the current clock of each cluster without cpufreq. cpufreq
// says whether any clock will be set.
func (s *sweeper) plan(allowed []int) ([]point, bool) {
	usable := map[int]bool{}
	for _, c := range allowed {
		usable[c] = true
	}
	var all []int
	for _, c := range allowed {
		all = append(all, c)
	}
	var points []point
	cpufreq := false
	clusters := s.info.CPU.Clusters
	if len(clusters) == 0 {
		// No clusters known: the whole machine at its one clock.
		if len(all) == 0 {
			return nil, false
		}
		return []point{{cluster: -1, single: all[0], multi: all}}, false
	}
	for _, cl := range clusters {
		var cpus []int
		for _, c := range cl.CPUs {
			if usable[c] {
				cpus = append(cpus, c)
			}
		}
		if len(cpus) == 0 {
			continue
		}
		base := point{cluster: cl.ID, core: cl.Core, single: cpus[0], multi: cpus}
		if s.opt.AllCores {
			base.multi = all
		}
		pols := cl.Policies
		if cl.Policy != nil {
			pols = []int{*cl.Policy}
		}
		var khz []int64
		if len(pols) > 0 {
			if k, err := tune.AvailableKHz(s.h, pols[0]); err == nil {
				khz = k
			}
		}
		if len(khz) == 0 {
			points = append(points, base)
			continue
		}
		cpufreq = true
		khz = slices.Clone(khz)
		slices.Sort(khz)
		slices.Reverse(khz)
		for _, k := range khz {
			p := base
			p.policies, p.khz = pols, k
			points = append(points, p)
		}
	}
	return points, cpufreq
}

// steps makes the steps of every point: the single-threaded passes, then
// the multi-threaded ones. Each pass is a step of its own, so that each is
// judged on its own (check.JudgePhase) and a disturbed pass is set aside
// while the others count.
func (s *sweeper) steps(points []point, res *result.Result) []session.Step {
	skip := ""
	switch {
	case s.tool == nil:
		skip = "7-Zip is missing"
	case s.guard == nil && points[0].khz != 0:
		skip = "the clocks cannot be set: " + res.Tuning.Note
	}
	est := 30 * time.Second
	if s.opt.Quick {
		est = 3 * time.Second
	}
	n := s.passes()
	var steps []session.Step
	for _, pt := range points {
		pt := pt
		for _, m := range []struct {
			name string
			cpus []int
		}{{result.PhaseSweepSingle, []int{pt.single}}, {result.PhaseSweepMulti, pt.multi}} {
			for pass := 1; pass <= n; pass++ {
				pass, m := pass, m
				e := est
				if pass == 1 {
					e += s.opt.Settle
				}
				steps = append(steps, session.Step{Name: m.name, Title: s.title(pt, len(m.cpus), pass, n), Kind: "7zip", CPUs: m.cpus, Estimate: e, Skip: skip,
					Run: func(ctx context.Context, p *result.Phase) error { return s.measure(ctx, p, pt, m.cpus, pass) }})
			}
		}
	}
	return steps
}

// title describes one measurement.
func (s *sweeper) title(pt point, threads, pass, passes int) string {
	clock := "the current clock"
	if pt.khz > 0 {
		clock = fmt.Sprintf("%d MHz (policy%d)", pt.khz/1000, pt.policies[0])
	}
	core := pt.core
	if core == "" {
		core = "CPU"
	}
	of := ""
	if passes > 1 {
		of = fmt.Sprintf(", pass %d of %d", pass, passes)
	}
	if threads == 1 {
		return fmt.Sprintf("7-Zip single-threaded on cpu%d (%s) at %s%s", pt.single, core, clock, of)
	}
	return fmt.Sprintf("7-Zip on %d threads at %s%s", threads, clock, of)
}

// measure pins the point's clock, lets the machine settle (before the
// first pass only: the clock and the load are the same for the next ones),
// reads the clocks and voltage, and runs 7-Zip once on cpus.
func (s *sweeper) measure(ctx context.Context, p *result.Phase, pt point, cpus []int, pass int) error {
	p.CPUs = cpus
	figs := result.SweepFigures{Pass: pass}
	if pt.khz > 0 {
		pol := pt.policies[0]
		figs.Policy = &pol
		mhz := float64(pt.khz) / 1000
		figs.RequestedMHz = &mhz
		for _, pol := range pt.policies {
			if err := s.guard.Pin(pol, pt.khz); err != nil {
				return fmt.Errorf("setting policy%d to %d MHz: %w", pol, pt.khz/1000, err)
			}
		}
	}
	if pass <= 1 {
		if err := sleep(ctx, s.opt.Settle); err != nil {
			return err
		}
	}
	figs.ReportedMHz = s.reportedMHz(pt.single, &figs)
	figs.FirmwareMHz = s.firmwareMHz(ctx)
	figs.CoreVolts, figs.VoltsSource = s.coreVolts(ctx, &figs)
	figs.MeasuredMHz = s.measureClock(ctx, pt.single, &figs)
	opts := sevenzip.Options{Threads: len(cpus), CPUs: cpus}
	if s.opt.Quick {
		opts.DictLog2, opts.Passes = 18, 1
	}
	tool := *s.tool
	m, err := sevenzip.Run(ctx, s.cfg.Exec, tool, opts)
	if m == nil {
		m = &sevenzip.Measurement{Tool: tool.Path, Args: sevenzip.Args(opts)}
	}
	run := result.SevenZipRun{DurationS: m.DurationS, Failure: m.Failure}
	if err != nil {
		run.Error = err.Error()
	} else if m.Result != nil && m.Result.Total.RatingMIPS > 0 {
		v := float64(m.Result.Total.RatingMIPS)
		u := float64(m.Result.Total.UsagePct)
		run.TotMIPS, run.UsagePct = &v, &u
	}
	figs.SevenZip = result.SevenZipFigures{CPUs: cpus, Core: pt.core, Threads: len(cpus), Version: tool.Version,
		Flavor: string(tool.Flavor), Args: sevenzip.Args(opts), Runs: []result.SevenZipRun{run}}
	figs.SevenZip.TotMIPS, _ = result.MeanAndDrift(figs.SevenZip.Runs)
	p.RawOutput = m.RawOutput
	if ferr := p.SetFigures(figs); ferr != nil {
		return ferr
	}
	if err != nil && ctx.Err() == nil {
		return fmt.Errorf("7-Zip failed: %v", err)
	}
	return ctx.Err()
}

// sleep waits d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
