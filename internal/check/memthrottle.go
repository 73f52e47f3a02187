package check

import (
	"encoding/json"
	"fmt"
	"math"

	"boardbench/internal/finding"
	"boardbench/internal/result"
)

// IDMemControllerThrottling is the finding of a memory bandwidth that fell
// after a long memory load (`mem --throttle-test`).
const IDMemControllerThrottling = "memory_controller_throttling"

// MemThrottleMinDropPct is the least fall of a kernel's bandwidth after
// the load that counts, however tight the samples; MemThrottleSpreadFactor
// times the larger of the two measurements' spreads is the other bound.
const (
	MemThrottleMinDropPct   = 3.0
	MemThrottleSpreadFactor = 2.0
)

// MemControllerThrottling judges a memory-controller throttling test: a
// kernel whose bandwidth after the load fell by more than
// MemThrottleMinDropPct and by more than MemThrottleSpreadFactor times the
// measurements' spread, with every sample after it below every sample
// before it. The memory clock of both phases is given when sampled.
func MemControllerThrottling(r *result.Result, _ Facts) []finding.Finding {
	before, bp := memThrottlePhase(r, result.PhaseMemThrottleBefore)
	after, ap := memThrottlePhase(r, result.PhaseMemThrottleAfter)
	if before == nil || after == nil {
		return nil
	}
	var lines []string
	for _, c := range result.CompareMemThrottle(before, after) {
		bound := math.Max(MemThrottleMinDropPct, MemThrottleSpreadFactor*math.Max(c.BeforeSpreadPct, c.AfterSpreadPct))
		if !c.Separated || c.ChangePct >= -bound {
			continue
		}
		lines = append(lines, fmt.Sprintf("%s: %.1f → %.1f MB/s (%+.1f%%) beyond the measurement's spread (%.2f%% before, %.2f%% after): every sample after the load below every sample before it",
			c.Kernel, c.BeforeMBs, c.AfterMBs, c.ChangePct, c.BeforeSpreadPct, c.AfterSpreadPct))
	}
	if len(lines) == 0 {
		return nil
	}
	dev := r.Monitor.MemClock
	if mb, ma := result.MemClockOf(dev, bp.Samples), result.MemClockOf(dev, ap.Samples); mb != nil && ma != nil {
		lines = append(lines, fmt.Sprintf("memory clock (%s): median %.0f MHz before, %.0f MHz after", dev, mb.MedianMHz, ma.MedianMHz))
	}
	return []finding.Finding{{
		ID: IDMemControllerThrottling, Severity: finding.Warning,
		Title:    "Memory bandwidth fell after the memory load: the memory controller (or the SoC) throttles under sustained memory traffic",
		Evidence: lines, Phases: []string{result.PhaseMemThrottleBefore, result.PhaseMemThrottleAfter},
		Advice: "Sustained memory-bound work (LLM inference, large data sets) runs slower than short benchmarks show. " +
			"Check the memory clock and the SoC temperature during the load (the result's samples), cool the board, and repeat to compare.",
	}}
}

// memThrottlePhase returns the figures and the phase of a completed
// before or after phase; nil when absent, not complete or unreadable.
func memThrottlePhase(r *result.Result, name string) (*result.MemAllCoresFigures, *result.Phase) {
	for i := range r.Phases {
		p := &r.Phases[i]
		if p.Name != name || p.Status != result.PhaseOK || len(p.Figures) == 0 {
			continue
		}
		var f result.MemAllCoresFigures
		if json.Unmarshal(p.Figures, &f) != nil {
			return nil, nil
		}
		return &f, p
	}
	return nil, nil
}
