// Package check turns the evidence of a run into findings: throttling,
// background activity, swapping, OOM kills, under-voltage, CPUs going
// offline, clocks below the advertised maximum or not matching what the
// kernel or firmware report, governors, tool versions and configuration that
// holds performance back. Each rule is a function of the run's result and a
// few facts about the machine, so rules are tested on recorded samples.
package check

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"boardbench/internal/finding"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/monitor"
	"boardbench/internal/result"
	"boardbench/internal/stats"
)

// Facts are what the rules need to know about the machine besides the
// phases' evidence. The run fills them from the machine description.
type Facts struct {
	// NCPU is the number of online CPUs at the start.
	NCPU int
	// Governors maps cpufreq policy → governor during the run.
	Governors map[int]string
	// Tuned is true when the run switched governors to performance.
	Tuned bool
	// Clusters are the clock checks per cluster.
	Clusters []Cluster
	// OnlineBefore and OnlineAfter are the online CPUs at start and end;
	// nil when unknown.
	OnlineBefore, OnlineAfter []int
	ZswapEnabled              bool
	ZramSwapActive            bool
	// RPiModel is the Raspberry Pi model name ("" elsewhere) and
	// TempSoftLimit its firmware temp_soft_limit (nil when unknown).
	RPiModel      string
	TempSoftLimit *int
	// Trips are the trip points of the SoC temperature sensor.
	Trips []Trip
	// SevenZip says whether the 7-Zip used is comparable with published results.
	SevenZip *ToolComparability
	// Hypervisor names the hypervisor of a virtual machine and its cloud
	// ("KVM on Hetzner Cloud"); "" on bare metal or when unknown.
	Hypervisor string
	// VM is true on a virtual machine.
	VM bool
}

// Cluster is one cluster's clock evidence.
type Cluster struct {
	Label string
	CPUs  []int
	// AdvertisedMaxMHz is the kernel's cpuinfo_max_freq.
	AdvertisedMaxMHz *float64
	MeasuredMHz      *float64
	ReportedMHz      *float64
	FirmwareMHz      *float64
	// Phase names the phase the clock was measured in.
	Phase string
	// Disturbed is true when every sample of the measurement was disturbed
	// by other tasks: MeasuredMHz reads low and is not compared.
	Disturbed bool
}

// Trip is a thermal trip point.
type Trip struct {
	Type string
	C    float64
}

// ToolComparability says whether a tool's figures compare with published ones.
type ToolComparability struct {
	Version    string
	Comparable bool
	Reason     string
}

// Rule is one validation rule.
type Rule func(r *result.Result, f Facts) []finding.Finding

// Run applies every rule and sorts findings by severity (worst first),
// keeping rule order within a severity.
func Run(r *result.Result, f Facts) []finding.Finding {
	var out []finding.Finding
	for _, rule := range Rules() {
		out = append(out, rule(r, f)...)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Severity.Rank() > out[j].Severity.Rank() })
	return out
}

// Verdict returns whether figures are valid and a one-line summary.
func Verdict(fs []finding.Finding) (valid bool, line string) {
	var inval, warn []string
	for _, f := range fs {
		switch f.Severity {
		case finding.Invalidates:
			inval = append(inval, f.ID)
		case finding.Warning:
			warn = append(warn, f.ID)
		}
	}
	switch {
	case len(inval) > 0:
		return false, "NOT VALID: " + strings.Join(dedupe(inval), ", ") + " invalidate the figures"
	case len(warn) > 0:
		return true, "valid with warnings: " + strings.Join(dedupe(warn), ", ")
	default:
		return true, "valid: no throttling, swapping, background activity or other problem seen"
	}
}

func dedupe(xs []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// eventsOf returns the events of a kind in every phase, with phase names.
func eventsOf(r *result.Result, kind string) (lines, phases []string) {
	for _, p := range r.Phases {
		hit := false
		for _, e := range p.Events {
			if e.Kind == kind {
				lines = append(lines, e.Line)
				hit = true
			}
		}
		if hit {
			phases = append(phases, p.Name)
		}
	}
	return lines, phases
}

func capEvidence(xs []string, n int) []string {
	if len(xs) <= n {
		return xs
	}
	return append(xs[:n:n], fmt.Sprintf("… and %d more", len(xs)-n))
}

// OOMKill: the kernel killed a process for lack of memory.
func OOMKill(r *result.Result, _ Facts) []finding.Finding {
	lines, phases := eventsOf(r, monitor.EventOOM)
	for _, p := range r.Phases {
		if strings.Contains(strings.ToLower(p.Reason), "out of memory") || strings.Contains(p.Reason, "OOM") {
			lines = append(lines, p.Name+": "+p.Reason)
			phases = append(phases, p.Name)
		}
	}
	return withEvidence(lines, finding.Finding{
		ID: "oom_kill", Severity: finding.Invalidates, Title: "The kernel killed a process for lack of memory",
		Evidence: capEvidence(lines, 5), Phases: dedupe(phases),
		Advice: "Free memory (stop services, close programs) or add swap; a benchmark that was killed or starved of memory has no comparable figure.",
	})
}

// UnderVoltage: the supply voltage dropped (kernel log or firmware flags).
func UnderVoltage(r *result.Result, _ Facts) []finding.Finding {
	lines, phases := eventsOf(r, monitor.EventUnderVoltage)
	var before []string
	for _, p := range r.Phases {
		if p.ThrottledAfter == nil {
			continue
		}
		after := *p.ThrottledAfter
		var b uint32
		if p.ThrottledBefore != nil {
			b = *p.ThrottledBefore
		}
		switch {
		case after&0x1 != 0:
			lines = append(lines, fmt.Sprintf("%s: firmware reports under-voltage now (get_throttled 0x%x)", p.Name, after))
			phases = append(phases, p.Name)
		case after&0x10000 != 0 && b&0x10000 == 0:
			lines = append(lines, fmt.Sprintf("%s: firmware reports under-voltage occurred during the phase (get_throttled 0x%x → 0x%x)", p.Name, b, after))
			phases = append(phases, p.Name)
		case b&0x10000 != 0:
			before = append(before, fmt.Sprintf("get_throttled 0x%x before %s", b, p.Name))
		}
	}
	var out []finding.Finding
	if len(lines) > 0 {
		out = append(out, finding.Finding{
			ID: "under_voltage", Severity: finding.Invalidates, Title: "Under-voltage during the run",
			Evidence: capEvidence(lines, 5), Phases: dedupe(phases),
			Advice: "Use a stronger power supply and a short, thick cable; under-voltage makes the firmware or PMIC cut clocks and can corrupt data.",
		})
	} else if len(before) > 0 {
		out = append(out, finding.Finding{
			ID: "under_voltage_before", Severity: finding.Warning, Title: "Under-voltage occurred since boot, before the run",
			Evidence: capEvidence(dedupe(before), 1),
			Advice:   "Check the power supply; the run itself saw no new under-voltage.",
		})
	}
	return out
}

// CPUOffline: CPUs went offline during the run.
func CPUOffline(r *result.Result, f Facts) []finding.Finding {
	lines, phases := eventsOf(r, monitor.EventCPUOffline)
	if f.OnlineBefore != nil && f.OnlineAfter != nil {
		after := map[int]bool{}
		for _, c := range f.OnlineAfter {
			after[c] = true
		}
		for _, c := range f.OnlineBefore {
			if !after[c] {
				lines = append(lines, fmt.Sprintf("cpu%d was online at the start and is offline at the end", c))
			}
		}
	}
	return withEvidence(lines, finding.Finding{
		ID: "cpu_offline", Severity: finding.Invalidates, Title: "CPU cores were taken offline during the run",
		Evidence: capEvidence(lines, 5), Phases: dedupe(phases),
		Advice: "Cores killed under load point to an unstable supply or an overheating SoC; multi-threaded figures ran on fewer cores.",
	})
}

// Swapping: pages were swapped during benchmark phases.
func Swapping(r *result.Result, _ Facts) []finding.Finding {
	var lines, phases []string
	var total uint64
	for _, p := range r.Phases {
		var in, out uint64
		if p.SwapIn != nil {
			in = *p.SwapIn
		}
		if p.SwapOut != nil {
			out = *p.SwapOut
		}
		if in+out == 0 {
			continue
		}
		total += in + out
		lines = append(lines, fmt.Sprintf("%s: %d pages swapped in, %d out", p.Name, in, out))
		phases = append(phases, p.Name)
	}
	if len(lines) == 0 {
		return nil
	}
	sev := finding.Warning
	if total > 2560 { // 10 MiB of 4 KiB pages
		sev = finding.Invalidates
	}
	return []finding.Finding{{
		ID: "swapping", Severity: sev, Title: "The machine swapped during the run",
		Evidence: capEvidence(lines, 5), Phases: phases,
		Advice: "Swapping slows benchmarks unpredictably; free memory or run fewer threads (7-Zip needs about 0.2–0.3 GB per thread pair with its default dictionary).",
	}}
}

// Throttling: clocks below the top OPP under load, or firmware capping.
func Throttling(r *result.Result, f Facts) []finding.Finding {
	var lines, phases []string
	for _, p := range r.Phases {
		if !busyPhase(p) {
			continue
		}
		hit := false
		for _, t := range p.TimeInState {
			if !policyInPhase(r, t.Policy, p) {
				continue
			}
			if t.TotalS > 0 && t.BelowTopS > math.Max(0.5, 0.05*t.TotalS) {
				lines = append(lines, fmt.Sprintf("%s: policy%d spent %.1f s of %.1f s below %.0f MHz (%s)",
					p.Name, t.Policy, t.BelowTopS, t.TotalS, t.TopMHz, fmtByMHz(t.ByMHz)))
				hit = true
			}
		}
		if p.ThrottledAfter != nil {
			after := *p.ThrottledAfter
			var b uint32
			if p.ThrottledBefore != nil {
				b = *p.ThrottledBefore
			}
			if after&0x6 != 0 || (after&0x60000 != 0 && b&0x60000 != after&0x60000) {
				lines = append(lines, fmt.Sprintf("%s: firmware reports frequency capping/throttling (get_throttled 0x%x → 0x%x)", p.Name, b, after))
				hit = true
			}
		}
		if hit {
			phases = append(phases, p.Name)
		}
	}
	return withEvidence(lines, finding.Finding{
		ID: "throttling", Severity: finding.Warning, Title: "Throttling: clocks dropped below the maximum under load",
		Evidence: capEvidence(lines, 6), Phases: phases,
		Advice: "Figures show this board's sustained performance, not the SoC's: add a heatsink or fan, check the supply, and repeat the run to compare.",
	})
}

func fmtByMHz(m map[string]float64) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return parseF(keys[i]) > parseF(keys[j]) })
	var parts []string
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s MHz %.1fs", k, m[k]))
	}
	return strings.Join(parts, ", ")
}

func parseF(s string) float64 {
	var v float64
	fmt.Sscanf(s, "%g", &v)
	return v
}

// busyPhase reports whether a phase loaded CPUs (its clocks should be at the top).
func busyPhase(p result.Phase) bool {
	return p.Status == result.PhaseOK && len(p.CPUs) > 0 && !strings.HasPrefix(p.Name, "clock")
}

// policyInPhase reports whether one of the phase's CPUs belongs to the policy.
func policyInPhase(r *result.Result, policy int, p result.Phase) bool {
	for _, pol := range r.Monitor.Policies {
		if pol.ID != policy {
			continue
		}
		for _, c := range pol.CPUs {
			for _, pc := range p.CPUs {
				if c == pc {
					return true
				}
			}
		}
	}
	return len(r.Monitor.Policies) == 0
}

// FallingScores: the valid consecutive multi-threaded 7-Zip runs fall in
// order, by 3 % or more from the first to the last (runs not in falling
// order are RunSpread's). Throttling is claimed only with evidence of a
// clock change in the multi-threaded phase (the sampled clock fell by more
// than 2 %, time_in_state below the top OPP, or firmware throttling
// flags). Where the clock was read and stayed put, the scores fell for
// another reason; without clock readings the cause cannot be told here.
func FallingScores(r *result.Result, _ Facts) []finding.Finding {
	runs := validMultiRuns(r.Summary)
	if len(runs) < 2 || runs[0] <= 0 {
		return nil
	}
	for i := 1; i < len(runs); i++ {
		if runs[i] > runs[i-1] {
			return nil
		}
	}
	last := runs[len(runs)-1]
	drop := 100 * (runs[0] - last) / runs[0]
	if drop < 3 {
		return nil
	}
	strs := make([]string, len(runs))
	for i, v := range runs {
		strs[i] = fmt.Sprintf("%.0f", v)
	}
	ev := []string{"multi-threaded totals: " + strings.Join(strs, ", ") + " MIPS"}
	f := finding.Finding{ID: "falling_scores", Severity: finding.Warning, Phases: []string{result.PhaseSevenZipMulti}}
	clock := multiClockEvidence(r)
	ev = append(ev, clock.lines...)
	f.Evidence = ev
	switch {
	case clock.fell:
		f.Title = fmt.Sprintf("Throttling: 7-Zip scores fell %.1f%% over consecutive runs while the clock fell", drop)
		f.Advice = "The clock dropped under sustained load: improve cooling (heatsink, fan) or the supply and compare again."
	case clock.read:
		f.Title = fmt.Sprintf("7-Zip scores fell %.1f%% over consecutive runs with the clock steady", drop)
		f.Advice = "The clock did not change, so something else slowed the later runs (other work, memory or storage): stop other work and repeat."
	default:
		f.Title = fmt.Sprintf("7-Zip scores fell %.1f%% over consecutive runs; the cause cannot be told here", drop)
		f.Advice = "This machine shows no clock readings for the run, so a clock drop cannot be seen; repeat the run, and compare with a cooler or quieter machine."
	}
	return []finding.Finding{f}
}

// clockEvidence is what the multi-threaded phase tells about its clock.
type clockEvidence struct {
	// read: the clock was read (sampled, time_in_state or firmware
	// flags); fell: it fell.
	read, fell bool
	lines      []string
}

// multiClockEvidence looks for a clock change in the multi-threaded 7-Zip
// phase: the sampled clock of a policy falling by more than 2 % from its
// highest reading, time in lower OPPs, firmware throttling flags; the
// temperature range is noted.
func multiClockEvidence(r *result.Result) clockEvidence {
	var c clockEvidence
	for _, p := range r.Phases {
		if p.Name != result.PhaseSevenZipMulti {
			continue
		}
		var lo, hi []float64
		tlo, thi := math.Inf(1), math.Inf(-1)
		for _, s := range p.Samples {
			for k, v := range s.ClockMHz {
				if v == nil || *v <= 0 {
					continue
				}
				for len(lo) <= k {
					lo, hi = append(lo, math.Inf(1)), append(hi, math.Inf(-1))
				}
				lo[k], hi[k] = math.Min(lo[k], *v), math.Max(hi[k], *v)
				c.read = true
			}
			if s.TempC != nil {
				tlo, thi = math.Min(tlo, *s.TempC), math.Max(thi, *s.TempC)
			}
		}
		for k := range lo {
			if hi[k] > 0 && !math.IsInf(lo[k], 0) && 100*(hi[k]-lo[k])/hi[k] > 2 {
				c.fell = true
				c.lines = append(c.lines, fmt.Sprintf("sampled clock %d: %.0f → %.0f MHz", k, hi[k], lo[k]))
			}
		}
		for _, t := range p.TimeInState {
			c.read = true
			if t.TotalS > 0 && t.BelowTopS > math.Max(0.5, 0.05*t.TotalS) {
				c.fell = true
				c.lines = append(c.lines, fmt.Sprintf("policy%d spent %.1f s of %.1f s below %.0f MHz", t.Policy, t.BelowTopS, t.TotalS, t.TopMHz))
			}
		}
		if p.ThrottledAfter != nil {
			c.read = true
			if *p.ThrottledAfter&0x6 != 0 {
				c.fell = true
				c.lines = append(c.lines, fmt.Sprintf("firmware reports frequency capping/throttling (get_throttled 0x%x)", *p.ThrottledAfter))
			}
		}
		if !math.IsInf(thi, 0) {
			c.lines = append(c.lines, fmt.Sprintf("temperature %.1f–%.1f °C", tlo, thi))
		}
		if !c.read {
			c.lines = append(c.lines, "no clock readings (no cpufreq, no firmware clock)")
		}
	}
	return c
}

// BackgroundActivity: something else used CPU time during a phase. Where
// the monitor knew the processes doing the work (the benchmark's process
// group and boardbench itself, Sample.WorkPct), the CPU time used outside
// them is the interference, in every phase; elsewhere (older results), a
// single-threaded phase's total CPU time is compared with one busy CPU.
// Notable system or iowait time during a single-threaded phase counts too.
// Each phase is judged over its own window, weighted by the samples'
// intervals; a window shorter than MinJudgedWindow is not judged.
func BackgroundActivity(r *result.Result, f Facts) []finding.Finding {
	if f.NCPU < 1 {
		return nil
	}
	oneCPU := 100 / float64(f.NCPU)
	var lines, phases []string
	for _, p := range r.Phases {
		// Network phases: the work runs in interrupt context and kernel
		// threads, outside the benchmark's processes; the net rules
		// (net.go) judge where it went. Passive phases watch other
		// tasks' work on purpose.
		// A disturbed phase is DisturbedFigures'.
		if p.Status != result.PhaseOK || p.Passive || isNetPhase(p.Name) || p.IsDisturbed() {
			continue
		}
		m, ok := windowMeans(p)
		if !ok {
			continue
		}
		single := len(p.CPUs) == 1
		var why []string
		switch {
		case m.work != nil:
			outside := m.cpu - m.steal - *m.work
			if outside > OutsideLimitPct(f.NCPU) {
				why = append(why, fmt.Sprintf("other tasks used %.1f%% of the CPU time (%.2f CPU) while the benchmark used %.1f%%",
					outside, outside/oneCPU, *m.work))
			}
		case single && f.NCPU >= 2 && m.cpu > oneCPU+2.5:
			why = append(why, fmt.Sprintf("%.1f%% CPU (one busy CPU of %d is %.1f%%)", m.cpu, f.NCPU, oneCPU))
		}
		if single && m.sys > math.Max(5, 0.5*oneCPU) {
			why = append(why, fmt.Sprintf("%.1f%% system time", m.sys))
		}
		if single && m.iowait > 2.5 {
			why = append(why, fmt.Sprintf("%.1f%% iowait", m.iowait))
		}
		if len(why) > 0 {
			lines = append(lines, fmt.Sprintf("%s on cpu%s: %s", p.Name, cpu.FormatCPUList(p.CPUs), strings.Join(why, ", ")))
			phases = append(phases, p.Name)
		}
	}
	return withEvidence(lines, finding.Finding{
		ID: "background_activity", Severity: finding.Warning, Title: "Background activity during the benchmarks",
		Evidence: capEvidence(lines, 6), Phases: phases,
		Advice: "Stop other work (updates, indexers, desktop, containers) and repeat; `boardbench monitor` shows what is busy.",
	})
}

// OutsideLimitPct is the share of all CPUs' time that other tasks may use
// during a phase before it is background activity: 2.5 %, and at most a
// quarter of one CPU on machines with many.
func OutsideLimitPct(ncpu int) float64 {
	if ncpu < 1 {
		ncpu = 1
	}
	return math.Min(2.5, 25/float64(ncpu))
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	var s float64
	for _, x := range xs {
		s += x
	}
	return s / float64(len(xs))
}

// ClockBelowMax: the measured clock stays below the advertised maximum.
func ClockBelowMax(_ *result.Result, f Facts) []finding.Finding {
	var lines []string
	for _, c := range f.Clusters {
		if c.Disturbed || c.MeasuredMHz == nil || c.AdvertisedMaxMHz == nil || *c.AdvertisedMaxMHz <= 0 {
			continue
		}
		if d := stats.DeviationPct(*c.MeasuredMHz, *c.AdvertisedMaxMHz); d < -2 {
			lines = append(lines, fmt.Sprintf("%s (%s): measured %.0f MHz, advertised maximum %.0f MHz (%.1f%%)", c.Label, c.Phase, *c.MeasuredMHz, *c.AdvertisedMaxMHz, d))
		}
	}
	return withEvidence(lines, finding.Finding{
		ID: "clock_below_max", Severity: finding.Warning, Title: "Measured clock below the advertised maximum",
		Evidence: lines,
		Advice:   "The cores never reach the clock the kernel advertises: check the governor, scaling_max_freq, thermal limits and the firmware.",
	})
}

// ClockMismatch: the kernel or firmware reports a clock the cores do not run at.
func ClockMismatch(_ *result.Result, f Facts) []finding.Finding {
	var lines []string
	for _, c := range f.Clusters {
		if c.Disturbed || c.MeasuredMHz == nil {
			continue
		}
		for _, ref := range []struct {
			name string
			v    *float64
		}{{"kernel", c.ReportedMHz}, {"firmware", c.FirmwareMHz}} {
			if ref.v == nil || *ref.v <= 0 {
				continue
			}
			if d := stats.DeviationPct(*c.MeasuredMHz, *ref.v); math.Abs(d) > 2 {
				lines = append(lines, fmt.Sprintf("%s (%s): %s reports %.0f MHz, measured %.0f MHz (%+.1f%%)", c.Label, c.Phase, ref.name, *ref.v, *c.MeasuredMHz, d))
			}
		}
	}
	return withEvidence(lines, finding.Finding{
		ID: "clock_mismatch", Severity: finding.Warning, Title: "Reported clockspeed does not match the measured one",
		Evidence: lines,
		Advice:   "Trust the measured clock: some firmware reports requested, not real, clocks (or caps them silently).",
	})
}

// Governor: cpufreq governors other than performance during the run.
func Governor(_ *result.Result, f Facts) []finding.Finding {
	var lines []string
	pols := make([]int, 0, len(f.Governors))
	for p := range f.Governors {
		pols = append(pols, p)
	}
	sort.Ints(pols)
	for _, p := range pols {
		if g := f.Governors[p]; g != "" && g != "performance" {
			lines = append(lines, fmt.Sprintf("policy%d: %s", p, g))
		}
	}
	if len(lines) == 0 || f.Tuned {
		return nil
	}
	return []finding.Finding{{
		ID: "governor", Severity: finding.Warning, Title: "cpufreq governor is not performance",
		Evidence: lines,
		Advice:   "Run as root to let boardbench switch to performance for the run (and restore afterwards); other governors may ramp up late, especially for I/O and memory.",
	}}
}

// SevenZipVersion: 7-Zip figures compare only at the same version.
func SevenZipVersion(_ *result.Result, f Facts) []finding.Finding {
	if f.SevenZip == nil || f.SevenZip.Comparable {
		return nil
	}
	return []finding.Finding{{
		ID: "sevenzip_version", Severity: finding.Info, Title: "7-Zip version differs from the one published results use",
		Evidence: []string{"7-Zip " + f.SevenZip.Version + ": " + f.SevenZip.Reason},
		Advice:   "Compare 7-Zip MIPS only with results of the same 7-Zip version (published tables use 16.02).",
	}}
}

// ZswapWithZram: both compress swapped pages, twice the work.
func ZswapWithZram(_ *result.Result, f Facts) []finding.Finding {
	if !f.ZswapEnabled || !f.ZramSwapActive {
		return nil
	}
	return []finding.Finding{{
		ID: "zswap_with_zram", Severity: finding.Warning, Title: "zswap is enabled together with zram swap",
		Evidence: []string{"zswap enabled and a zram device is used for swap"},
		Advice:   "Disable zswap (zswap.enabled=0 on the kernel command line) when swapping to zram: pages get compressed twice.",
	}}
}

// TempSoftLimit: Raspberry Pi 3B+ throttles at 60 °C by default.
func TempSoftLimit(_ *result.Result, f Facts) []finding.Finding {
	if !strings.Contains(f.RPiModel, "3 Model B+") && !strings.Contains(f.RPiModel, "3B+") {
		return nil
	}
	limit := "unknown (default 60)"
	if f.TempSoftLimit != nil {
		if *f.TempSoftLimit >= 70 {
			return nil
		}
		limit = fmt.Sprintf("%d", *f.TempSoftLimit)
	}
	return []finding.Finding{{
		ID: "rpi_temp_soft_limit", Severity: finding.Warning, Title: "Raspberry Pi 3B+ soft temperature limit throttles early",
		Evidence: []string{"temp_soft_limit " + limit + " °C: the firmware drops the ARM clock from 1400 to 1200 MHz at that temperature"},
		Advice:   "Set temp_soft_limit=70 in config.txt (allowed up to 70 °C) and improve cooling.",
	}}
}

// NearTripPoint: the SoC came within 5 °C of a passive/hot trip point.
func NearTripPoint(r *result.Result, f Facts) []finding.Finding {
	var trip *Trip
	for i, t := range f.Trips {
		if t.Type == "critical" {
			continue
		}
		if trip == nil || t.C < trip.C {
			trip = &f.Trips[i]
		}
	}
	if trip == nil {
		return nil
	}
	maxT, phase := math.Inf(-1), ""
	for _, p := range r.Phases {
		for _, s := range p.Samples {
			if s.TempC != nil && *s.TempC > maxT {
				maxT, phase = *s.TempC, p.Name
			}
		}
	}
	if maxT < trip.C-5 {
		return nil
	}
	return []finding.Finding{{
		ID: "near_trip_point", Severity: finding.Warning, Title: "Temperature reached a thermal trip point's range",
		Evidence: []string{fmt.Sprintf("highest temperature %.1f °C in %s; %s trip point at %.1f °C", maxT, phase, trip.Type, trip.C)},
		Phases:   []string{phase},
		Advice:   "Near a trip point the kernel starts cutting clocks; improve cooling before comparing figures.",
	}}
}

// withEvidence returns f with lines as its evidence, or no finding at all
// when there is no evidence.
func withEvidence(lines []string, f finding.Finding) []finding.Finding {
	if len(lines) == 0 {
		return nil
	}
	return []finding.Finding{f}
}
