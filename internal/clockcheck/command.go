package clockcheck

import (
	"context"
	"fmt"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	"boardbench/internal/interrupt"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/iostreams"
	probeclock "boardbench/internal/probe/clock"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/tune"
)

// Command is the plan of `boardbench clock`: what one run measures, and
// its report once measured.
type Command struct {
	Host *host.Host
	CPU  cpu.Info
	// Probe measures the clock of one CPU: probeclock.Measure, a fake in
	// tests.
	Probe   MeasureFunc
	Options probeclock.Options
	// CPUs are the CPUs asked for with --cpu; nil means one per cluster.
	CPUs []int
	// Allowed are the CPUs this process may run on.
	Allowed []int
	// OPPs walks every cpufreq clock (--opps).
	OPPs bool
	// Wait is the guard's option for the tuning lock (--wait).
	Wait tune.Option
	// Lock is the tuning lock --opps takes before measuring, handed to
	// the guard (nil: the guard takes it).
	Lock   *tune.Lock
	IsRoot bool
	// Report is the report once measured (nil before).
	Report *Report

	// progress shows what is being measured (on a terminal only); nil
	// for none. It is the session's status line.
	progress *iostreams.Status
	// sess is the session the measurement runs in (its tuning guard).
	sess *session.Session
}

// checker returns the clock checker of this run.
func (r *Command) checker() *Checker {
	c := &Checker{Host: r.Host, CPU: r.CPU, Probe: r.Probe, Options: r.Options, CPUs: r.CPUs, Allowed: r.Allowed}
	if r.progress != nil {
		c.Progress = func(msg string) { r.progressf("%s", msg) }
	}
	return c
}

// Preflight refuses, before anything is measured, an OPP walk that
// cannot be made here (exit status 2).
func (r *Command) Preflight() error {
	if !r.OPPs {
		return nil
	}
	if !r.IsRoot {
		return cmdutil.Refusef("--opps needs root: it pins each cpufreq clock in turn (run it with sudo, or leave --opps out)")
	}
	if err := r.checker().CanWalk(); err != nil {
		return cmdutil.Refusef("--opps: %v", err)
	}
	return nil
}

// clusters measures every target and, with --opps, walks the OPPs. It
// returns the report made so far together with any error; the report is
// nil only when nothing could start.
func (r *Command) clusters(ctx context.Context) (*Report, error) {
	c := r.checker()
	rep, err := c.Clusters(ctx)
	r.progressDone()
	if ctx.Err() != nil {
		return rep, interrupt.Err(ctx)
	}
	if err != nil {
		return rep, err
	}
	if !r.OPPs {
		return rep, nil
	}
	return rep, r.walkOPPs(ctx, c, rep)
}

// walkOPPs pins every clock of every measured cluster's policy, highest
// first, and measures it, through the session's tuning guard: the
// settings are written back when the walk ends (and by the guard at once
// on a signal; the engine closes it at the end).
func (r *Command) walkOPPs(ctx context.Context, c *Checker, rep *Report) error {
	opt := r.Wait
	if r.Lock != nil {
		opt = tune.WithLock(r.Lock)
	}
	g, gctx, err := r.sess.Tune(ctx, opt)
	if err != nil {
		return fmt.Errorf("--opps: saving the cpufreq settings: %w", err)
	}
	walkErr := c.WalkOPPs(gctx, g, rep)
	r.progressDone()
	if ctx.Err() != nil || gctx.Err() != nil {
		rep.Notes.Add("OPP walk", "interrupted; cpufreq settings restored")
		return interrupt.Err(ctx)
	}
	if err := g.Rewind(); err != nil {
		return fmt.Errorf("restoring cpufreq settings: %w", err)
	}
	return walkErr
}

// progressf shows what is being measured now.
func (r *Command) progressf(format string, args ...any) {
	if r.progress != nil {
		r.progress.Show(fmt.Sprintf(format, args...) + "…")
	}
}

// progressDone clears the status line.
func (r *Command) progressDone() {
	if r.progress != nil {
		r.progress.Clear()
	}
}

// Run runs the measurement as the one step of a session of the
// engine: monitored, validated, printed (cfg.Print) and written to
// cfg.Path when it is not "". cfg's Host, Command and Options are the
// runner's. It returns the report (nil when nothing was measured), the
// outcome, and the command's error.
func (r *Command) Run(ctx context.Context, cfg session.Config) (*Report, *session.Outcome, error) {
	cfg.Host, cfg.Command = r.Host, "clock"
	cfg.Options = map[string]any{"opps": r.OPPs, "samples": r.Options.Samples, "cpus": nil}
	if r.CPUs != nil {
		cfg.Options["cpus"] = cpuListText(r.CPUs)
	}
	r.progress = cfg.Status
	var rep *Report
	var runErr error
	title := "Clock of one CPU per cluster"
	switch {
	case r.CPUs != nil:
		title = "Clock of cpu" + cpuListText(r.CPUs)
	case r.OPPs:
		title += ", and of every cpufreq OPP"
	}
	step := session.Step{Name: result.PhaseClock, Title: title, Kind: "clock", Estimate: time.Second,
		Run: func(ctx context.Context, p *result.Phase) error {
			rep, runErr = r.clusters(ctx)
			r.Report = rep
			if rep == nil {
				return runErr
			}
			if cfg.Info != nil {
				rep.AddOPPSelection(cfg.Info.OPPSelection)
			}
			if err := FillPhase(p, rep, cfg.Info.CPU.Clusters); err != nil {
				return err
			}
			return runErr
		}}
	out, err := session.Measure(ctx, cfg, session.Plan{
		Prepare: func(ctx context.Context, s *session.Session) ([]session.Step, error) {
			r.sess = s
			return []session.Step{step}, nil
		},
		End: func(*session.Session) session.End {
			if runErr != nil && ctx.Err() == nil {
				return session.End{Failed: rep == nil, Err: runErr}
			}
			return session.End{}
		},
	})
	return rep, out, err
}

// cpuListText writes ids compactly: [0 1 2 3 6] → "0-3,6"; "-" for none.
func cpuListText(ids []int) string {
	if len(ids) == 0 {
		return "-"
	}
	return cpu.FormatCPUList(ids)
}
