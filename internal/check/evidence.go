package check

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"boardbench/internal/benchtool/wrapped"
	"boardbench/internal/finding"
	"boardbench/internal/result"
)

// MinJudgedWindow is the shortest sampled time over which a phase's CPU
// time split is judged: shorter windows hold too few clock ticks (100 per
// second and CPU) to tell background activity from rounding.
const MinJudgedWindow = 500 * time.Millisecond

// MaxRunSpreadPct is the spread of consecutive multi-threaded 7-Zip runs,
// (highest − lowest) / highest, beyond which the runs disagree.
const MaxRunSpreadPct = 5.0

// MaxStealPct is the share of CPU time the hypervisor may give to other
// guests during a phase before it is a finding.
const MaxStealPct = 2.0

// means are a phase's CPU time shares over its window.
type means struct {
	cpu, sys, iowait, steal, irq float64
	// work is the share of the watched processes; nil when the monitor
	// did not know them.
	work *float64
}

// windowMeans returns the shares of a phase's samples, each weighted by
// the time it covers (the time since the previous sample) when the samples
// carry times, else equally. The first sample is passed over: it has no
// shares (results since the window is measured from its start) or covers
// time before the phase (older results). false when nothing is left or the
// sampled time is shorter than MinJudgedWindow.
func windowMeans(p result.Phase) (means, bool) {
	var m means
	var total, workTotal float64
	haveWork := true
	for i := 1; i < len(p.Samples); i++ {
		s := p.Samples[i]
		if s.CPUPct == nil {
			continue
		}
		w := 1.0
		if prev := p.Samples[i-1].Time; !prev.IsZero() && !s.Time.IsZero() {
			w = s.Time.Sub(prev).Seconds()
			if w <= 0 {
				continue
			}
		}
		total += w
		m.cpu += w * *s.CPUPct
		m.sys += w * deref(s.SysPct)
		m.iowait += w * deref(s.IowaitPct)
		m.steal += w * deref(s.StealPct)
		m.irq += w * deref(s.IRQPct)
		if s.WorkPct == nil {
			haveWork = false
		} else {
			workTotal += w * *s.WorkPct
		}
	}
	if total == 0 {
		return means{}, false
	}
	if timed := !p.Samples[len(p.Samples)-1].Time.IsZero(); timed && total < MinJudgedWindow.Seconds() {
		return means{}, false
	}
	m.cpu, m.sys, m.iowait, m.steal, m.irq = m.cpu/total, m.sys/total, m.iowait/total, m.steal/total, m.irq/total
	if haveWork {
		w := workTotal / total
		m.work = &w
	}
	return m, true
}

func deref(p *float64) float64 {
	if p == nil {
		return 0
	}
	return *p
}

// sevenZipPhase reports whether the phase named name holds
// result.SevenZipFigures.
func sevenZipPhase(name string) bool {
	switch name {
	case result.PhaseSevenZipSingle, result.PhaseSevenZipMulti,
		result.PhaseSevenZipCluster, result.PhaseSustained:
		return true
	}
	return false
}

// SevenZipLowUsage: 7-Zip's own CPU usage (its Tot: line) shows that a run
// did not get the CPUs it asked for (result.SevenZipFigures.LowUsageRuns).
func SevenZipLowUsage(r *result.Result, _ Facts) []finding.Finding {
	var lines, phases []string
	for _, p := range r.Phases {
		if !sevenZipPhase(p.Name) || len(p.Figures) == 0 {
			continue
		}
		var f result.SevenZipFigures
		if json.Unmarshal(p.Figures, &f) != nil {
			continue
		}
		low := f.LowUsageRuns()
		for _, run := range low {
			lines = append(lines, fmt.Sprintf("%s used %.0f%% of %.0f%% CPU: %.0f MIPS",
				sevenZipRunName(p.Name, f, run.Run), run.UsagePct, run.ExpectedPct, run.TotMIPS))
		}
		if len(low) > 0 {
			phases = append(phases, p.Name)
		}
	}
	return withEvidence(lines, finding.Finding{
		ID: "sevenzip_low_usage", Severity: finding.Warning, Title: "7-Zip did not get the CPUs it asked for",
		Evidence: capEvidence(lines, 6), Phases: dedupe(phases),
		Advice: "Another task took CPU time from 7-Zip (its own usage figure says so) and the score reads low; " +
			"the summary leaves such runs out of the multi-threaded mean. Stop other work and repeat.",
	})
}

// sevenZipRunName names a run in evidence: "7-Zip multi-threaded run 1",
// "7-Zip single-threaded on cpu1".
func sevenZipRunName(phase string, f result.SevenZipFigures, n int) string {
	kind := "multi-threaded"
	switch phase {
	case result.PhaseSevenZipSingle:
		kind = "single-threaded"
	case result.PhaseSevenZipCluster:
		kind = "multi-threaded (cluster)"
	case result.PhaseSustained:
		kind = "sustained"
	}
	name := "7-Zip " + kind
	if f.Threads == 1 && len(f.CPUs) == 1 {
		name += fmt.Sprintf(" on cpu%d", f.CPUs[0])
	}
	if len(f.Runs) > 1 {
		name += fmt.Sprintf(" run %d", n)
	}
	return name
}

// RunSpread: the valid consecutive multi-threaded 7-Zip runs (those the
// headline stands on) differ by more than MaxRunSpreadPct without falling
// in order. Runs that fall in order are FallingScores' finding; the two
// never fire together.
func RunSpread(r *result.Result, _ Facts) []finding.Finding {
	runs := validMultiRuns(r.Summary)
	if len(runs) < 2 {
		return nil
	}
	lo, hi := runs[0], runs[0]
	falling := true
	for i, v := range runs {
		lo, hi = min(lo, v), max(hi, v)
		if i > 0 && v > runs[i-1] {
			falling = false
		}
	}
	if hi <= 0 {
		return nil
	}
	spread := 100 * (hi - lo) / hi
	if spread <= MaxRunSpreadPct || falling {
		return nil
	}
	strs := make([]string, len(runs))
	for i, v := range runs {
		strs[i] = fmt.Sprintf("%.0f", v)
	}
	return []finding.Finding{{
		ID: "sevenzip_spread", Severity: finding.Warning,
		Title: fmt.Sprintf("Interference: 7-Zip multi-threaded runs differ by %.1f%%", spread),
		Evidence: []string{fmt.Sprintf("multi-threaded totals of the valid runs: %s MIPS, not in falling order",
			strings.Join(strs, ", "))},
		Phases: []string{result.PhaseSevenZipMulti},
		Advice: "Consecutive runs of a quiet machine agree within a few percent: something else ran during some of them. Stop other work and repeat.",
	}}
}

// StealTime: the hypervisor gave more than MaxStealPct of the CPU time to
// other guests during a phase: on a virtual machine or a shared host this
// is the background activity the guest cannot see.
func StealTime(r *result.Result, f Facts) []finding.Finding {
	var lines, phases []string
	for _, p := range r.Phases {
		if p.Status != result.PhaseOK {
			continue
		}
		m, ok := windowMeans(p)
		if !ok || m.steal <= MaxStealPct {
			continue
		}
		lines = append(lines, fmt.Sprintf("%s: %.1f%% of the CPU time was stolen", p.Name, m.steal))
		phases = append(phases, p.Name)
	}
	if len(lines) == 0 {
		return nil
	}
	host := "the hypervisor"
	if f.Hypervisor != "" {
		host += " (" + f.Hypervisor + ")"
	}
	ev := append([]string{host + " ran other guests on this machine's CPUs"}, capEvidence(lines, 6)...)
	return []finding.Finding{{
		ID: "steal_time", Severity: finding.Warning, Title: "Steal time: the hypervisor gave CPU time to other guests",
		Evidence: ev, Phases: phases,
		Advice: "Figures of a virtual machine depend on its neighbours: repeat at another time, or use dedicated vCPUs, to compare.",
	}}
}

// ClockDisturbed: every sample of a clock measurement was disturbed by
// other tasks, so its figure reads low and is not the clock.
func ClockDisturbed(r *result.Result, _ Facts) []finding.Finding {
	var lines, phases []string
	for _, p := range r.Phases {
		if (p.Name != result.PhaseClock && p.Name != result.PhaseClockAfterLoad) || len(p.Figures) == 0 {
			continue
		}
		var f result.ClockFigures
		if json.Unmarshal(p.Figures, &f) != nil {
			continue
		}
		hit := false
		for _, c := range f.Clusters {
			if !c.AllDisturbed() || c.CPU == nil {
				continue
			}
			read := ""
			if c.MeasuredMHz != nil {
				read = fmt.Sprintf(": they read %.0f MHz, which is not the clock", *c.MeasuredMHz)
			}
			lines = append(lines, fmt.Sprintf("%s on cpu%d: all %d samples were disturbed by other tasks%s", p.Name, *c.CPU, len(c.Samples), read))
			hit = true
		}
		if hit {
			phases = append(phases, p.Name)
		}
	}
	return withEvidence(lines, finding.Finding{
		ID: "clock_disturbed", Severity: finding.Warning, Title: "A clock measurement was disturbed throughout: no clock figure",
		Evidence: lines, Phases: dedupe(phases),
		Advice: "Another task kept taking the CPU during every sample; stop other work and measure again (`boardbench clock`).",
	})
}

// HPLResidualFailed: an HPL run printed a FAILED residual check, so the
// machine computed wrong results (on boards typically a marginal CPU supply
// or an unstable clock): nothing measured with it can be trusted. It reads
// a wrapped HPL run (monitor -- COMMAND) and the hpl phase of `run
// --workloads hpl`, whose figures have the same runs and checks.
func HPLResidualFailed(r *result.Result, _ Facts) []finding.Finding {
	var lines, phases []string
	for _, p := range r.Phases {
		if p.Name != result.PhaseCommand && p.Name != result.PhaseHPL || len(p.Figures) == 0 {
			continue
		}
		var f wrapped.Figures
		if p.Name == result.PhaseHPL {
			f.HPL = &wrapped.HPLFigures{}
			if json.Unmarshal(p.Figures, f.HPL) != nil {
				continue
			}
		} else if json.Unmarshal(p.Figures, &f) != nil {
			continue
		}
		if f.HPL == nil || !f.HPL.ResidualFailed {
			continue
		}
		failed := f.HPL.FailedRuns()
		for _, run := range failed {
			res := "no value"
			if run.Residual != nil {
				res = fmt.Sprintf("%g", *run.Residual)
			}
			lines = append(lines, fmt.Sprintf("HPL %s N=%d NB=%d: residual check FAILED (scaled residual %s), %.4g Gflops", run.Variant, run.N, run.NB, res, run.Gflops))
		}
		if f.HPL.FailedTests != nil && *f.HPL.FailedTests > 0 {
			lines = append(lines, fmt.Sprintf("HPL summary: %d test(s) completed and failed residual checks", *f.HPL.FailedTests))
		}
		if len(failed) == 0 && (f.HPL.FailedTests == nil || *f.HPL.FailedTests == 0) {
			lines = append(lines, "HPL reported a failed residual check")
		}
		phases = append(phases, p.Name)
	}
	return withEvidence(lines, finding.Finding{
		ID: "hpl_residual_failed", Severity: finding.Invalidates, Title: "HPL computed wrong results: the machine is not stable",
		Evidence: capEvidence(lines, 6), Phases: phases,
		Advice: "A failed residual check means wrong arithmetic under load, usually a weak or marginal CPU supply, overclocking or overheating: " +
			"fix the power supply and cooling before trusting any figure of this machine.",
	})
}

// validMultiRuns returns the multi-threaded totals the headline stands on,
// in order: every run but the disturbed ones.
func validMultiRuns(s result.Summary) []float64 {
	var out []float64
	for i, v := range s.SevenZipMultiRuns {
		if !slices.Contains(s.SevenZipMultiDisturbedRuns, i+1) {
			out = append(out, v)
		}
	}
	return out
}
