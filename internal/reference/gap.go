package reference

import (
	"fmt"
	"sort"
	"strings"

	"boardbench/internal/finding"
	"boardbench/internal/result"
)

// The causes a gap is explained by, in the order unquantified causes are
// listed.
const (
	CauseClock      = "clock"
	CauseGovernor   = "cpufreq governor"
	CauseDMC        = "memory controller"
	CauseThrottling = "throttling"
	CauseBackground = "background activity"
	CauseUserland   = "32-bit userland"
	CauseSevenZip   = "7-Zip version"
	CauseKernel     = "kernel"
	CauseSwap       = "swap"
)

// Cause is one measured cause of a figure's gap.
type Cause struct {
	Name string `json:"name"`
	// Explains is the share of the gap (0–1) the cause can explain where
	// it can be measured (a clock deficit); nil where it cannot.
	Explains *float64 `json:"explains"`
	// Evidence says what supports it, with the result's and the reference
	// results' values.
	Evidence string `json:"evidence"`
}

// slowGovernor reports whether g is a cpufreq governor that holds a CPU
// below its highest clock under a benchmark's load, or reacts late to it.
func slowGovernor(g string) bool {
	switch g {
	case "powersave", "conservative", "userspace", "ondemand":
		return true
	}
	return false
}

// causes lists the measured causes the result's evidence supports, those
// with a measured share first (largest first), then the others in the
// order of the constants above.
func causes(f Figure, gap float64, pop []Entry, c Conditions, r *result.Result, group string) []Cause {
	var out []Cause
	n := len(pop)
	name := group
	if name == "" {
		name = "reference"
	}
	// A lower clock: CPU-bound figures scale with it.
	if f.CPUBound {
		if clock, ok := FiguresOf(r.Summary)[KeyClock]; ok {
			refs := entryClocks(pop)
			if len(refs) > 0 {
				med := Quantile(refs, 0.5)
				if clock < (1-0.03)*med {
					share := min(1, (1-clock/med)/gap)
					out = append(out, Cause{Name: CauseClock, Explains: &share,
						Evidence: fmt.Sprintf("measured %.0f MHz; the %d %s results ran at %s MHz (median %.0f)", clock, len(refs), name, span(refs), med)})
				}
			}
		}
	}
	// The cpufreq governor.
	if ev := governorEvidence(c, pop, r); ev != "" {
		out = append(out, Cause{Name: CauseGovernor, Evidence: ev})
	}
	// The memory controller's governor and clock.
	if f.Memory || f.Key == KeyMulti {
		if cause, ok := dmcCause(f, gap, c, pop); ok {
			out = append(out, cause)
		}
	}
	if ev := findingEvidence(r, "throttling", "falling_scores", "rpi_temp_soft_limit", "under_voltage"); ev != "" {
		out = append(out, Cause{Name: CauseThrottling, Evidence: ev})
	}
	bg := findingEvidence(r, "background_activity", "sevenzip_low_usage", "steal_time")
	if bg == "" && f.Key == KeyMulti && len(r.Summary.SevenZipMultiDisturbedRuns) > 0 {
		bg = fmt.Sprintf("other tasks took CPUs from %d of the multi-threaded 7-Zip runs", len(r.Summary.SevenZipMultiDisturbedRuns))
	}
	if bg != "" {
		out = append(out, Cause{Name: CauseBackground, Evidence: bg})
	}
	if f.Key != KeyClock && c.Bits == 32 {
		if k, known := countBits(pop, 64); k > 0 {
			out = append(out, Cause{Name: CauseUserland, Evidence: fmt.Sprintf("this result ran a 32-bit userland (%s); %d of the %d %s results that say ran a 64-bit one (32-bit builds often lack the 64-bit code paths, e.g. the ARMv8 AES instructions)",
				orUnknown(c.Userland), k, known, name)})
		}
	}
	if f.SevenZip && c.SevenZip != "" {
		if v, k := majority(pop, func(e Entry) string { return e.SevenZip }); v != "" && v != c.SevenZip {
			out = append(out, Cause{Name: CauseSevenZip, Evidence: fmt.Sprintf("this result ran 7-Zip %s; %d of the %d %s results ran %s", c.SevenZip, k, n, name, v)})
		}
	}
	if f.Key != KeyClock && c.KernelKind != "" && c.KernelKind != "unknown" {
		if v, k := majority(pop, func(e Entry) string { return e.KernelKind }); v != "" && v != "unknown" && (v == "vendor") != (c.KernelKind == "vendor") {
			out = append(out, Cause{Name: CauseKernel, Evidence: fmt.Sprintf("this result ran a %s kernel (%s); %d of the %d %s results ran a %s one (vendor and mainline kernels differ in memory and clock settings, either way)",
				c.KernelKind, c.Kernel, k, n, name, v)})
		}
	}
	if ev := findingEvidence(r, "swapping", "zswap_with_zram"); ev != "" {
		out = append(out, Cause{Name: CauseSwap, Evidence: ev})
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Explains, out[j].Explains
		switch {
		case a != nil && b != nil:
			return *a > *b
		case a != nil:
			return true
		}
		return false
	})
	return out
}

// governorEvidence says when the run's cpufreq governor held the clock
// back: the result's governor finding, or a slow governor that the
// reference results did not use.
func governorEvidence(c Conditions, pop []Entry, r *result.Result) string {
	if ev := findingEvidence(r, "governor"); ev != "" {
		return ev
	}
	var slow []string
	for _, g := range strings.Split(c.Governor, ",") {
		if slowGovernor(g) {
			slow = append(slow, g)
		}
	}
	if len(slow) == 0 {
		return ""
	}
	v, k := majority(pop, func(e Entry) string { return e.Governor })
	ref := "the reference logs do not name theirs"
	if v != "" {
		ref = fmt.Sprintf("%d of the %d reference results ran %s", k, len(pop), v)
	}
	return fmt.Sprintf("cpufreq governor %s during the run; %s", strings.Join(slow, ","), ref)
}

// dmcCause says when the memory controller ran slower than the reference
// results' or under a governor that keeps it low.
func dmcCause(f Figure, gap float64, c Conditions, pop []Entry) (Cause, bool) {
	if c.DMCGovernor == "" && c.DMCMHz == nil {
		return Cause{}, false
	}
	var refMHz []float64
	govs := map[string]int{}
	shown := 0
	for _, e := range pop {
		if e.DMCGovernor != "" || e.DMCMHz != nil {
			shown++
		}
		if e.DMCGovernor != "" {
			govs[e.DMCGovernor]++
		}
		if e.DMCMHz != nil {
			refMHz = append(refMHz, *e.DMCMHz)
		}
	}
	sort.Float64s(refMHz)
	ours := "governor " + orUnknown(c.DMCGovernor)
	if c.DMCMHz != nil {
		ours += fmt.Sprintf(" at %.0f MHz", *c.DMCMHz)
	}
	refs := "the reference logs do not show theirs"
	if shown > 0 {
		var parts []string
		for _, g := range sortedKeys(govs) {
			parts = append(parts, fmt.Sprintf("%d %s", govs[g], g))
		}
		refs = fmt.Sprintf("%d reference results show theirs: %s", shown, strings.Join(parts, ", "))
		if len(refMHz) > 0 {
			refs += fmt.Sprintf(", at %s MHz", span(refMHz))
		}
	}
	cause := Cause{Name: CauseDMC, Evidence: fmt.Sprintf("memory controller %s during the run; %s", ours, refs)}
	if c.DMCMHz != nil && len(refMHz) > 0 && f.Memory {
		med := Quantile(refMHz, 0.5)
		if *c.DMCMHz < (1-GapShare)*med {
			share := min(1, (1-*c.DMCMHz/med)/gap)
			cause.Explains = &share
			return cause, true
		}
	}
	slow := c.DMCGovernor == "powersave" || c.DMCGovernor == "userspace"
	refPerf := govs["performance"] > 0 && c.DMCGovernor != "performance" && c.DMCGovernor != ""
	return cause, slow || refPerf
}

// findingEvidence returns the first finding's title and evidence among ids.
func findingEvidence(r *result.Result, ids ...string) string {
	for _, f := range r.Findings {
		if f.Severity == finding.Info || !contains(ids, f.ID) {
			continue
		}
		s := f.Title
		if len(f.Evidence) > 0 {
			s += ": " + f.Evidence[0]
		}
		return s
	}
	return ""
}

// entryClocks returns the highest measured clock of each entry, ascending.
func entryClocks(pop []Entry) []float64 {
	var out []float64
	for _, e := range pop {
		if v, ok := e.Figures[KeyClock]; ok {
			out = append(out, v)
		}
	}
	sort.Float64s(out)
	return out
}

// span is "a–b" of ascending values: the 10th to 90th percentile with at
// least MinForPercentile values, else the lowest to the highest.
func span(sorted []float64) string {
	lo, hi := sorted[0], sorted[len(sorted)-1]
	if len(sorted) >= MinForPercentile {
		lo, hi = Quantile(sorted, 0.1), Quantile(sorted, 0.9)
	}
	if fmt.Sprintf("%.0f", lo) == fmt.Sprintf("%.0f", hi) {
		return fmt.Sprintf("%.0f", lo)
	}
	return fmt.Sprintf("%.0f–%.0f", lo, hi)
}

func countBits(pop []Entry, bits int) (k, known int) {
	for _, e := range pop {
		if e.Bits != 0 {
			known++
			if e.Bits == bits {
				k++
			}
		}
	}
	return k, known
}

// majority returns the most common non-empty value and its count.
func majority(pop []Entry, get func(Entry) string) (string, int) {
	m := map[string]int{}
	for _, e := range pop {
		if v := get(e); v != "" {
			m[v]++
		}
	}
	best, n := "", 0
	for _, k := range sortedKeys(m) {
		if m[k] > n {
			best, n = k, m[k]
		}
	}
	return best, n
}

func sortedKeys(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
