package benchrun

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"boardbench/internal/check"
	"boardbench/internal/finding"
	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/memmeasure"
	"boardbench/internal/monitor"
	probeclock "boardbench/internal/probe/clock"
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/tools"
	"boardbench/internal/tune"
)

// ErrNotLive is returned for a recorded root without fake benchmarks.
const ErrNotLive = sentinel("run benchmarks the machine it runs on; it cannot run on a recorded root (--root)")

// sentinel is an error value of this package that callers match with
// errors.Is; being a string constant, it costs nothing at start-up.
type sentinel string

func (e sentinel) Error() string { return string(e) }

// runner is one run in progress: the plan of `run` and what it learns on
// the way; the session owns the result, the monitor and the lifecycle.
type runner struct {
	cfg  Config
	opt  Options
	plan Plan
	est  Estimates
	h    *host.Host
	now  func() time.Time

	info *inventory.Info
	sess *session.Session
	// res is the session's result, filled by the preparation steps.
	res    *result.Result
	mon    *monitor.Monitor
	isRoot bool
	// usable are the CPUs this process may use that are online.
	usable  []int
	targets []Target
	tools   ToolSet
	// guard is the session's tuning guard (nil when nothing is tuned).
	guard *tune.Guard
	prog  *progress

	// pinFailed maps CPUs that could not be pinned to the reason.
	pinFailed map[int]string
	// runFindings are findings of the run itself (idle gate, tools,
	// pinning, tuning); the rules of package check add the others.
	runFindings  []finding.Finding
	onlineBefore []int
	tuned        bool
	// governorsDuring are the cpufreq governors while benchmarking.
	governorsDuring map[int]string
	// wl are the programs of the hpl and ssh workloads (workloads.go).
	wl workloadTools
	// wlTools and wlMissing are the workloads' programs and why one is
	// missing, by workload name.
	wlTools   map[string]*tools.Tool
	wlMissing map[string]*ToolMissing
}

// Run runs the benchmark through the session engine. The Outcome is nil
// only when nothing could start (then the error says why); otherwise its
// result was written to its path and printed (Config.Print), and the error
// is the command's (session.Finish): an interruption, a failure to write
// the file, or a verdict that is not valid.
func Run(ctx context.Context, cfg Config, opt Options) (*session.Outcome, error) {
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
		r.cfg.Memory = memmeasure.Measure
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

func (r *runner) run(ctx context.Context) (*session.Outcome, error) {
	r.prog = newProgress(r.cfg.Progress, r.cfg.TTY, r.cfg.Width, r.now)
	r.prog.status = r.liveStatus
	r.info = inventory.Collect(r.h, inventory.Options{Redact: true})
	path := r.opt.Output
	if path == "" {
		path = DefaultFileName(r.info, hostname(r.h), r.now())
	}
	cfg := session.Config{
		Host: r.h, Info: r.info, Command: "run", Options: r.optionsMap(), Path: path,
		Status: r.prog.st, Warn: r.cfg.Progress, Now: r.now,
		Summarize: result.BuildSummary, Facts: r.facts, Findings: r.findings,
		Power: r.opt.Power, Print: r.cfg.Print, Keep: r.cfg.Keep,
	}
	return session.Measure(ctx, cfg, session.Plan{Prepare: r.prepare})
}

// prepare is the run's preparation once the result exists: CPUs, tools,
// the idle gate and the tuning; it returns the run's steps.
func (r *runner) prepare(ctx context.Context, sess *session.Session) ([]session.Step, error) {
	r.sess, r.res, r.mon = sess, sess.Result(), sess.Monitor()
	r.prog.linef("boardbench run: writing the result to %s", sess.Path())
	r.onlineBefore = sess.OnlineBefore()
	r.chooseCPUs()
	r.plan.Memory = r.plan.Memory.ForMachine(r.info).Within(memmeasure.ReadRoom(r.h))
	r.prog.linef("boardbench run: looking for 7-Zip and openssl")
	r.findTools(ctx)
	r.findCryptsetup(ctx)
	r.findWorkloadTools(ctx)
	if ctx.Err() == nil {
		r.idleGate(ctx)
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	r.tune(ctx)
	r.governorsDuring = r.governors()
	sess.Save()
	return r.steps(), nil
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
		m["openssl_evp_ciphers"] = r.plan.EVPCiphers
		m["cryptsetup_key_bits"] = r.plan.CryptsetupKeyBits
	}
	if wl := r.opt.workloadList(); len(wl) > 0 {
		m["workloads"] = wl
		if r.opt.Model != "" {
			m["model"] = filepath.Base(r.opt.Model)
		}
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
			r.runFindings = append(r.runFindings, check.CPUsOfflineAtStart(off))
		}
	}
	r.usable = usable
	r.targets = Targets(r.info.CPU, usable)
}
