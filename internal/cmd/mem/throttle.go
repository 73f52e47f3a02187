package mem

import (
	"context"
	"fmt"
	"io"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	machine "boardbench/internal/inventory"
	"boardbench/internal/memmeasure"
	"boardbench/internal/report/runtext"
	"boardbench/internal/result"
	"boardbench/internal/schema"
	"boardbench/internal/session"
	"boardbench/internal/textfmt"
)

// ThrottleReport is the JSON document of `boardbench mem --throttle-test`.
type ThrottleReport struct {
	SchemaVersion string `json:"schema_version"`
	memmeasure.ThrottleReport
	// Valid and Verdict are the measurement's verdict (result.Summary);
	// Findings its findings' titles.
	Valid    bool     `json:"valid"`
	Verdict  string   `json:"verdict"`
	Findings []string `json:"findings"`
}

// checkThrottleFlags refuses --load without --throttle-test, a load that
// is not positive, and --cpu with --throttle-test (the test loads all
// CPUs).
func checkThrottleFlags(opts *Options) error {
	switch {
	case opts.LoadSet && !opts.ThrottleTest:
		return cmdutil.Usagef("--load only applies to --throttle-test")
	case opts.ThrottleTest && opts.Load <= 0:
		return cmdutil.Usagef("--load: %s is not a positive duration", opts.Load)
	case opts.ThrottleTest && opts.CPUList != "":
		return cmdutil.Usagef("--throttle-test loads and measures all usable CPUs; leave --cpu out")
	}
	return nil
}

// runThrottle measures the plan of memmeasure.ThrottleSteps through the
// session engine.
func runThrottle(ctx context.Context, opts *Options, h *host.Host, info *machine.Info, plan memmeasure.Plan, usable []int) error {
	f := opts.Factory
	tp := memmeasure.NewThrottlePlan(opts.Quick, opts.Load).ForMachine(h, plan, usable)
	out := &memmeasure.ThrottleFigures{}
	steps := memmeasure.ThrottleSteps(usable, tp, out)
	status := f.Status("mem", false)
	status.Work(tp.Estimate())
	report := func(r *result.Result) ThrottleReport {
		rep := ThrottleReport{SchemaVersion: schema.Version, ThrottleReport: memmeasure.NewThrottleReport(r, out),
			Valid: r.Summary.Valid, Verdict: r.Summary.Verdict, Findings: []string{}}
		for _, fd := range r.Findings {
			rep.Findings = append(rep.Findings, fd.Title)
		}
		return rep
	}
	cfg := session.Config{Host: h, Info: info, Command: "mem", Path: opts.Output, Warn: f.IO.ErrOut, Keep: f.Keep, Status: status,
		Options: map[string]any{"quick": opts.Quick, "throttle_test": true, "load_s": opts.Load.Seconds(), "max_size_bytes": plan.MaxBufferBytes},
		Print: session.NewPrinter(f.IO.Out, opts.JSON, func(r *result.Result) any { return report(r) },
			func(w io.Writer, r *result.Result) { renderThrottle(w, report(r), f.IO.ColorEnabled()) })}
	_, err := session.Measure(ctx, cfg, session.Plan{Steps: steps})
	return err
}

// renderThrottle writes the text report of a throttling test.
func renderThrottle(w io.Writer, rep ThrottleReport, color bool) {
	tw := textfmt.New(w, color)
	tw.Section("Memory-controller throttling test (all CPUs; MB/s, 1 MB = 10^6 bytes)")
	if len(rep.Changes) == 0 {
		tw.Line("before and after: not both measured")
	} else {
		t := textfmt.NewTable("kernel", "before", "after", "change", "spread before", "spread after")
		for i := 1; i <= 5; i++ {
			t.RightAlign[i] = true
		}
		for _, c := range rep.Changes {
			t.Row(c.Kernel, fmt.Sprintf("%.1f", c.BeforeMBs), fmt.Sprintf("%.1f", c.AfterMBs),
				fmt.Sprintf("%+.1f%%", c.ChangePct), fmt.Sprintf("%.2f%%", c.BeforeSpreadPct), fmt.Sprintf("%.2f%%", c.AfterSpreadPct))
		}
		tw.Table(t)
	}
	if l := rep.Load; l != nil {
		tw.Line("load: %s on %d CPUs for %s of %s; %s MB/s in its first fifth, %s MB/s in its last",
			l.Kernel, len(l.CPUs), time.Duration(l.DurationS*float64(time.Second)).Round(time.Second), time.Duration(l.RequestedS*float64(time.Second)).Round(time.Second),
			mbs(l.FirstMBs), mbs(l.LastMBs))
		for _, n := range l.Notes {
			tw.Line("load: %s", n)
		}
	}
	tw.Line("memory clock before: %s", runtext.MemClockText(rep.MemClockBefore))
	tw.Line("memory clock under load: %s", runtext.MemClockText(rep.MemClockLoad))
	tw.Line("memory clock after: %s", runtext.MemClockText(rep.MemClockAfter))
	for _, fig := range []*result.MemAllCoresFigures{rep.Before, rep.After} {
		if fig != nil {
			for _, n := range fig.Notes {
				tw.Line("note: %s", n)
			}
		}
	}
}

func mbs(v *float64) string {
	if v == nil {
		return "unknown"
	}
	return fmt.Sprintf("%.1f", *v)
}
