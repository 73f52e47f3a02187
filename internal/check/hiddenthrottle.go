package check

import (
	"fmt"

	"boardbench/internal/finding"
	"boardbench/internal/result"
)

// IDHiddenThrottling is the finding of a firmware clock below the clock
// the kernel reports.
const IDHiddenThrottling = "hidden_throttling"

// HiddenThrottlePct is how far the firmware's ARM clock must be below the
// kernel's reported (cpufreq) clock in one sample to count: beyond the
// few-percent rounding between the firmware's measured clock and a
// cpufreq step, and beyond a governor's change between the two reads.
const HiddenThrottlePct = 5.0

// hiddenMinSamples is the least number of such samples in a phase, and
// hiddenMinShare the least share of its comparable samples, so that one
// read taken across a clock change does not count.
const (
	hiddenMinSamples = 2
	hiddenMinShare   = 0.05
)

// HiddenThrottling: in a loaded phase the Raspberry Pi firmware's ARM
// clock (measure_clock arm, sampled by the monitor) was below the clock
// the kernel's cpufreq reported in the same sample. The firmware lowers
// the clock (soft temperature limit, under-voltage, the thermal limit)
// without telling cpufreq, so every clock the kernel shows is the
// requested one, not the real one.
func HiddenThrottling(r *result.Result, _ Facts) []finding.Finding {
	var lines, phases []string
	for _, p := range r.Phases {
		if !busyPhase(p) {
			continue
		}
		comparable, low := 0, 0
		var firstAt float64
		var lowestFW, kernelAt float64
		for _, s := range p.Samples {
			if s.FirmwareMHz == nil {
				continue
			}
			k := highestClock(s.ClockMHz)
			if k == nil {
				continue
			}
			comparable++
			if *s.FirmwareMHz >= *k*(1-HiddenThrottlePct/100) {
				continue
			}
			if low == 0 {
				firstAt = s.Time.Sub(p.StartedAt).Seconds()
			}
			if low == 0 || *s.FirmwareMHz < lowestFW {
				lowestFW, kernelAt = *s.FirmwareMHz, *k
			}
			low++
		}
		if low < hiddenMinSamples || float64(low) < hiddenMinShare*float64(comparable) {
			continue
		}
		lines = append(lines, fmt.Sprintf("%s: %d of %d samples with the firmware clock more than %.0f%% below cpufreq's, down to %.0f MHz while cpufreq reported %.0f MHz (first at %.0f s)",
			p.Name, low, comparable, HiddenThrottlePct, lowestFW, kernelAt, firstAt))
		phases = append(phases, p.Name)
	}
	return withEvidence(lines, finding.Finding{
		ID: IDHiddenThrottling, Severity: finding.Warning,
		Title:    "Hidden throttling: the firmware ran the ARM cores below the clock the kernel reports",
		Evidence: capEvidence(lines, 6), Phases: phases,
		Advice: "The kernel's clocks are the requested ones, not the real ones: the firmware lowered the clock for heat or supply. " +
			"Figures show the board as cooled and powered here; add a heatsink or fan, check the supply (vcgencmd get_throttled), and repeat the run to compare.",
	})
}

// highestClock returns the highest known clock of a sample's policies.
func highestClock(c []*float64) *float64 {
	var best *float64
	for _, v := range c {
		if v != nil && (best == nil || *v > *best) {
			best = v
		}
	}
	return best
}
