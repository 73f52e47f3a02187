package benchrun

import (
	"context"
	"fmt"

	"boardbench/internal/check"
	"boardbench/internal/clockcheck"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/result"
	"boardbench/internal/session"
)

// clockStep measures one CPU per cluster; in the first clock phase with
// --opps it also walks the operating points.
func (r *runner) clockStep(name, title string, walk bool) session.Step {
	return session.Step{Name: name, Title: title, Kind: "clock", Estimate: r.est.Clock, Run: func(ctx context.Context, p *result.Phase) error {
		c := &clockcheck.Checker{Host: r.h, CPU: r.info.CPU, Probe: r.cfg.Clock, Allowed: r.pinnable()}
		rep, err := c.Clusters(ctx)
		if walk && ctx.Err() == nil && err == nil {
			r.walkOPPs(ctx, c, rep)
		}
		if ferr := clockcheck.FillPhase(p, rep, r.info.CPU.Clusters); ferr != nil {
			return ferr
		}
		return err
	}}
}

// walkOPPs pins and measures every OPP through the guard, then puts the
// run's tuning back. Without root or cpufreq it records why it did not.
func (r *runner) walkOPPs(ctx context.Context, c *clockcheck.Checker, rep *clockcheck.Report) {
	skip := func(why string) {
		r.runFindings = append(r.runFindings, check.OPPWalkSkipped(why))
	}
	switch {
	case !r.isRoot:
		skip("it needs root: it pins each cpufreq clock in turn")
		return
	case r.guard == nil:
		skip("no cpufreq tunables to pin")
		return
	}
	if err := c.CanWalk(); err != nil {
		skip(err.Error())
		return
	}
	werr := c.WalkOPPs(ctx, r.guard, rep)
	if werr != nil && ctx.Err() == nil {
		rep.Notes.Add("OPP walk", werr.Error())
	}
	if ctx.Err() != nil {
		return // the guard restores everything
	}
	if err := r.guard.Rewind(); err != nil {
		rep.Notes.Add("OPP walk", "restoring the limits: "+err.Error())
	}
	r.applyPerformance()
}

// clusterLabel names a clock cluster in findings: "cluster 1 (cpu4-7, Cortex-A76)".
func clusterLabel(c result.ClockCluster) string {
	s := "cpu" + cpu.FormatCPUList(c.CPUs)
	if c.Core != "" {
		s += ", " + c.Core
	}
	if c.Cluster != nil {
		return fmt.Sprintf("cluster %d (%s)", *c.Cluster, s)
	}
	return s
}
