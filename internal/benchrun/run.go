package benchrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"
	"time"

	"boardbench/internal/finding"
	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/monitor"
	probeclock "boardbench/internal/probe/clock"
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/tune"
)

// ErrNotLive is returned for a recorded root without fake benchmarks.
var ErrNotLive = errors.New("run benchmarks the machine it runs on; it cannot run on a recorded root (--root)")

// runner is one run in progress.
type runner struct {
	cfg  Config
	opt  Options
	plan Plan
	est  Estimates
	h    *host.Host
	now  func() time.Time

	info   *inventory.Info
	res    *result.Result
	path   string
	isRoot bool
	// usable are the CPUs this process may use that are online.
	usable  []int
	targets []Target
	tools   ToolSet
	guard   *tune.Guard
	mon     *monitor.Monitor
	stopMon context.CancelFunc
	prog    *progress

	// pinFailed maps CPUs that could not be pinned to the reason.
	pinFailed map[int]string
	// runFindings are findings of the run itself (idle gate, tools,
	// pinning, tuning); the rules of package check add the others.
	runFindings  []finding.Finding
	onlineBefore []int
	tuned        bool
	// governorsDuring are the cpufreq governors while benchmarking.
	governorsDuring map[int]string
	saveErr         error
}

// Run runs the benchmark. The Outcome is nil only when nothing could start
// (then the error says why); otherwise its result was written to its path,
// and the error reports an interruption or a failure to write the file.
func Run(ctx context.Context, cfg Config, opt Options) (*Outcome, error) {
	if cfg.Host == nil {
		return nil, errors.New("benchrun: no host")
	}
	if !cfg.Host.Live() && (cfg.Exec == nil || cfg.Clock == nil || cfg.Memory == nil || cfg.FindTools == nil) {
		return nil, ErrNotLive
	}
	r := &runner{cfg: cfg, opt: opt, h: cfg.Host, now: cfg.Now, pinFailed: map[int]string{}}
	if r.now == nil {
		r.now = time.Now
	}
	if r.cfg.Exec == nil {
		r.cfg.Exec = proc.ForHost(r.h)
	}
	if r.cfg.Clock == nil {
		r.cfg.Clock = probeclock.Measure
	}
	if r.cfg.Memory == nil {
		r.cfg.Memory = MeasureMemory
	}
	if r.cfg.FindTools == nil {
		r.cfg.FindTools = FindTools
	}
	r.isRoot = r.h.IsRoot()
	if cfg.IsRoot != nil {
		r.isRoot = *cfg.IsRoot
	}
	if r.opt.IdleTimeout <= 0 {
		r.opt.IdleTimeout = DefaultIdleTimeout
	}
	r.plan = NewPlan(r.opt)
	r.est = DefaultEstimates(r.plan)
	return r.run(ctx)
}

func (r *runner) run(ctx context.Context) (*Outcome, error) {
	r.prog = newProgress(r.cfg.Progress, r.cfg.TTY, r.cfg.Width, r.now)
	r.prog.status = r.liveStatus
	r.info = inventory.Collect(r.h, inventory.Options{Redact: true})
	r.path = r.opt.Output
	if r.path == "" {
		r.path = DefaultFileName(r.info, hostname(r.h), r.now())
	}
	r.res = result.New("run", r.info, r.optionsMap())
	r.res.StartedAt = r.now().UTC()
	r.res.Tools = []result.ToolVersion{}
	r.res.Tuning.Changed = []string{}
	if err := result.Save(r.path, r.res); err != nil {
		return nil, fmt.Errorf("cannot write the result file: %v", err)
	}
	r.prog.linef("boardbench run: writing the result to %s", r.path)

	r.onlineBefore = cpu.OnlineCPUs(r.h)
	r.chooseCPUs()
	r.plan.Memory.BudgetBytes, r.plan.Memory.THPMode = memoryBudget(r.info)
	r.prog.linef("boardbench run: looking for 7-Zip and openssl")
	r.findTools(ctx)
	if ctx.Err() == nil {
		r.idleGate(ctx)
	}
	if ctx.Err() == nil {
		r.tune(ctx)
		r.governorsDuring = r.governors()
		r.startMonitor(ctx)
		steps := r.steps()
		r.prog.setPlan(steps)
		for i, st := range steps {
			if ctx.Err() != nil {
				break
			}
			r.runStep(ctx, i, st)
		}
		r.prog.done()
	}
	return r.finish(ctx)
}

// optionsMap records the options and the parameters they imply.
func (r *runner) optionsMap() map[string]any {
	m := map[string]any{
		"quick":                    r.opt.Quick,
		"extensive":                r.opt.Extensive,
		"opps":                     r.opt.OPPs,
		"force":                    r.opt.Force,
		"no_install":               r.opt.NoInstall,
		"idle_timeout_s":           r.opt.IdleTimeout.Seconds(),
		"openssl_seconds":          r.plan.OpenSSLSeconds,
		"openssl_ciphers":          r.plan.Ciphers,
		"sevenzip_multi_runs":      r.plan.SevenZipMultiRuns,
		"sevenzip_dict_log2":       r.plan.SevenZipDictLog2,
		"sevenzip_passes":          r.plan.SevenZipPasses,
		"memory_latency_max_bytes": r.plan.Memory.LatencyMaxBytes,
	}
	if r.opt.Extensive {
		m["sustained_s"] = r.plan.Sustained.Seconds()
	}
	return m
}

// chooseCPUs finds the CPUs to use: allowed for this process and online,
// and groups them into core types.
func (r *runner) chooseCPUs() {
	allowed := r.cfg.Allowed
	if allowed == nil {
		a, err := host.AllowedCPUs()
		if err == nil {
			allowed = a
		}
	}
	usable := append([]int(nil), allowed...)
	if r.onlineBefore != nil {
		usable = intersect(allowed, r.onlineBefore)
		var off []string
		for _, c := range r.info.CPU.CPUs {
			if c.Online != nil && !*c.Online {
				off = append(off, fmt.Sprintf("cpu%d", c.ID))
			}
		}
		if len(off) > 0 {
			r.runFindings = append(r.runFindings, finding.Finding{
				ID: "cpus_offline_at_start", Severity: finding.Warning,
				Title:    "Some CPUs were offline when the run started",
				Evidence: []string{strings.Join(off, ", ") + " offline; multi-threaded figures use the online CPUs only"},
				Advice:   "Bring all cores online (echo 1 > /sys/devices/system/cpu/cpuN/online) before comparing multi-threaded figures.",
			})
		}
	}
	r.usable = usable
	r.targets = Targets(r.info.CPU, usable)
}

// startMonitor starts the background sampler.
func (r *runner) startMonitor(ctx context.Context) {
	mcfg := monitor.ConfigFor(r.h, r.info)
	mcfg.Interval = 2 * time.Second
	r.mon = monitor.New(r.h, mcfg)
	r.res.Monitor = result.MonitorInfo{Policies: mcfg.Policies, TempLabel: mcfg.TempLabel, Power: mcfg.Power, Firmware: mcfg.Firmware != nil}
	if r.res.Monitor.Policies == nil {
		r.res.Monitor.Policies = []monitor.Policy{}
	}
	if r.res.Monitor.Power == nil {
		r.res.Monitor.Power = []monitor.Sensor{}
	}
	mctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	r.stopMon = cancel
	go r.mon.Run(mctx, nil)
}

// save writes the result; the first failure is kept for the end.
func (r *runner) save() {
	if err := result.Save(r.path, r.res); err != nil && r.saveErr == nil {
		r.saveErr = err
	}
}

// finish stops the monitor, restores the tunables, validates and writes the
// final result.
func (r *runner) finish(ctx context.Context) (*Outcome, error) {
	if r.stopMon != nil {
		r.stopMon()
	}
	out := &Outcome{Result: r.res, Path: r.path}
	var sig os.Signal
	if r.guard != nil {
		err := r.guard.Close()
		sig = r.guard.Signal()
		r.res.Tuning.Restored = err == nil
		if err != nil {
			r.runFindings = append(r.runFindings, finding.Finding{
				ID: "restore_failed", Severity: finding.Warning, Title: "Some tunables could not be restored",
				Evidence: strings.Split(err.Error(), "\n"),
				Advice:   "Check the cpufreq governors and limits; a reboot restores the defaults.",
			})
		}
	}
	interrupted := ctx.Err() != nil || sig != nil
	r.res.Status = result.StatusComplete
	if interrupted {
		r.res.Status = result.StatusInterrupted
		out.Signal = signalName(ctx, sig)
	}
	end := r.now().UTC()
	r.res.FinishedAt = &end
	r.validate()
	r.save()
	if interrupted {
		return out, &InterruptedError{Signal: out.Signal}
	}
	if r.saveErr != nil {
		return out, fmt.Errorf("writing the result to %s: %v", r.path, r.saveErr)
	}
	return out, nil
}

// InterruptedError reports a run stopped by a signal (or a cancelled
// context).
type InterruptedError struct{ Signal string }

// Error names the signal.
func (e *InterruptedError) Error() string { return "interrupted by " + e.Signal }

// signalName names what stopped the run: the signal the guard saw, else
// the cause of ctx's cancellation.
func signalName(ctx context.Context, sig os.Signal) string {
	switch sig {
	case os.Interrupt:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	}
	if cause := context.Cause(ctx); cause != nil {
		s := cause.Error()
		switch {
		case strings.Contains(s, "terminated"):
			return "SIGTERM"
		case strings.Contains(s, "interrupt"):
			return "SIGINT"
		}
	}
	return "a signal"
}
