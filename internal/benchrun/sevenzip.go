package benchrun

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"boardbench/internal/benchtool/sevenzip"
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/session"
)

// sevenZipSingleStep runs 7-Zip with one thread pinned to one CPU of t.
func (r *runner) sevenZipSingleStep(t Target) session.Step {
	return session.Step{Name: result.PhaseSevenZipSingle, Title: "7-Zip single-threaded on one CPU of " + t.Label(), Kind: "7zip",
		Estimate: r.est.SevenZipSingle,
		Run: func(ctx context.Context, p *result.Phase) error {
			cpu, ok := r.pick(t)
			if !ok {
				return fmt.Errorf("no CPU of %s could be pinned", t.Label())
			}
			p.CPUs = []int{cpu}
			p.Title = fmt.Sprintf("7-Zip single-threaded on cpu%d (%s)", cpu, orUnknown(t.Core))
			return r.sevenZipRuns(ctx, p, []int{cpu}, 1, t.Core, 1, 0)
		}}
}

// sevenZipMultiStep runs 7-Zip on all usable CPUs, n consecutive times.
func (r *runner) sevenZipMultiStep(name, title string, cpus []int, core string, runs int, sustained time.Duration, estimate time.Duration) session.Step {
	return session.Step{Name: name, Title: title, Kind: "7zip", CPUs: cpus, Estimate: estimate,
		Run: func(ctx context.Context, p *result.Phase) error {
			use := intersect(cpus, r.pinnable())
			if len(use) == 0 {
				return errors.New("no CPU could be pinned")
			}
			p.CPUs = use
			return r.sevenZipRuns(ctx, p, use, len(use), core, runs, sustained)
		}}
}

// sevenZipRuns runs the benchmark on cpus with threads threads, runs times
// in a row (or, when sustained is set, until that much time has passed and
// at least twice), and fills the phase. It stops at the first failed run:
// an out-of-memory kill or 7-Zip's own allocation failure is kept in the
// phase's reason (for the oom_kill finding) with the runs before it.
func (r *runner) sevenZipRuns(ctx context.Context, p *result.Phase, cpus []int, threads int, core string, runs int, sustained time.Duration) error {
	tool := *r.tools.SevenZip
	opts := sevenzip.Options{Threads: threads, CPUs: cpus, DictLog2: r.plan.SevenZipDictLog2, Passes: r.plan.SevenZipPasses}
	figs := result.SevenZipFigures{CPUs: cpus, Core: core, Threads: threads, Version: tool.Version, Flavor: string(tool.Flavor),
		Args: sevenzip.Args(opts), Runs: []result.SevenZipRun{}}
	var raw strings.Builder
	var runErr error
	start := r.now()
	for i := 0; ; i++ {
		if sustained > 0 {
			if i >= 2 && r.now().Sub(start) >= sustained {
				break
			}
			r.prog.sub(fmt.Sprintf("run %d, %.0f of %.0f s", i+1, r.now().Sub(start).Seconds(), sustained.Seconds()))
		} else {
			if i >= runs {
				break
			}
			if runs > 1 {
				r.prog.sub(fmt.Sprintf("run %d of %d", i+1, runs))
			}
		}
		m, err := sevenzip.Run(ctx, r.cfg.Exec, tool, opts)
		if m == nil {
			m = &sevenzip.Measurement{Tool: tool.Path, Args: sevenzip.Args(opts)}
		}
		appendRaw(&raw, m.Tool, m.Args, m.RawOutput, m.RawStderr)
		run := sevenZipRun(m, err)
		figs.Runs = append(figs.Runs, run)
		if ctx.Err() != nil {
			break
		}
		if err != nil {
			runErr = sevenZipError(i+1, m, err)
			break
		}
	}
	figs.TotMIPS, figs.DriftPct = result.MeanAndDrift(figs.Runs)
	p.RawOutput = raw.String()
	if err := p.SetFigures(figs); err != nil {
		return err
	}
	return runErr
}

// sevenZipRun converts one measurement.
func sevenZipRun(m *sevenzip.Measurement, err error) result.SevenZipRun {
	run := result.SevenZipRun{DurationS: round2(m.DurationS), Failure: m.Failure}
	if err != nil {
		run.Error = err.Error()
	}
	res := m.Result
	if res == nil {
		return run
	}
	run.RAMUsageBytes = res.RAMUsageBytes
	if err == nil && res.Total.RatingMIPS > 0 {
		run.TotMIPS = f64(float64(res.Total.RatingMIPS))
		run.UsagePct = f64(float64(res.Total.UsagePct))
	}
	if a := res.Average; a != nil && err == nil {
		run.CompressMIPS = f64(float64(a.Compress.RatingMIPS))
		run.DecompressMIPS = f64(float64(a.Decompress.RatingMIPS))
		if a.Compress.SpeedKiBs != nil {
			run.CompressKiBs = f64(float64(*a.Compress.SpeedKiBs))
		}
		if a.Decompress.SpeedKiBs != nil {
			run.DecompressKiBs = f64(float64(*a.Decompress.SpeedKiBs))
		}
	}
	return run
}

// sevenZipError describes a failed run in words the validation rules
// recognise ("out of memory" for the oom_kill finding).
func sevenZipError(n int, m *sevenzip.Measurement, err error) error {
	switch {
	case errors.Is(err, proc.ErrKilled) || m.Failure == proc.FailureOOMKilled:
		return fmt.Errorf("7-Zip run %d was killed by SIGKILL, most likely by the kernel's out-of-memory (OOM) killer: RAM is too small for this many threads", n)
	case errors.Is(err, sevenzip.ErrNoMemory) || m.Failure == sevenzip.FailureNoMemory:
		return fmt.Errorf("7-Zip run %d could not allocate its memory (out of memory): RAM is too small for this many threads", n)
	}
	return fmt.Errorf("7-Zip run %d failed: %v", n, err)
}

func f64(v float64) *float64 { return &v }

func timeMul(n int) time.Duration { return time.Duration(n) }
