package runtext

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/rpi"
	"boardbench/internal/monitor"
	"boardbench/internal/power"
	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// outputTailLines is how many last lines of a monitored command's output
// the report shows; the JSON result keeps all of it.
const outputTailLines = 20

// renderPhases writes every phase: heading, CPUs, timing, status, figures,
// cpufreq time_in_state, swap, kernel events, firmware flags, notes and the
// monitor lines.
func renderPhases(w *textfmt.Writer, r *result.Result) {
	if len(r.Phases) == 0 {
		w.Section("Phases")
		w.Line("none recorded")
		return
	}
	cols := monitor.ColumnsOf(r.Monitor, r.Power != nil && r.Power.Measures != power.MeasuresLimit)
	renderPowerSource(w, r)
	labels := policyLabels(r.Monitor.Policies)
	for i, p := range r.Phases {
		heading := fmt.Sprintf("Phase %d/%d (%s)", i+1, len(r.Phases), orDash(p.Name))
		if p.Title != "" {
			heading += ": " + p.Title
		}
		w.Section(heading)
		renderPhaseHead(w, p)
		if pp := powerPairs(p); len(pp) > 0 {
			w.KV(pp...)
		}
		renderFigures(w, p, r.Monitor.MemClock)
		if p.Status == result.PhaseSkipped && len(p.Samples) == 0 {
			continue // never ran: no evidence to show
		}
		if r.Command == result.CommandImport {
			continue // a log has no monitor evidence per phase: its monitor lines are in the imported-log phase
		}
		renderEvidence(w, p, labels)
		renderTemps(w, r.Monitor.Temps, p.Samples)
		renderSamples(w, cols, r.Monitor.TempLabel, p.Samples)
	}
}

// notRecorded stands for a time or duration the result's source did not
// record (Phase.TimingNotRecorded).
const notRecorded = "not recorded"

func renderPhaseHead(w *textfmt.Writer, p result.Phase) {
	cpus := "n/a (not recorded)"
	if len(p.CPUs) > 0 {
		cpus = "cpu" + cpu.FormatCPUList(p.CPUs)
	}
	status := strings.ToUpper(orDash(p.Status))
	if p.Status == result.PhaseOK {
		status = "ok"
	}
	if reason := textfmt.Reason(p.Reason); reason != "" {
		// "interrupted by SIGINT; …" under status "interrupted" reads
		// "INTERRUPTED by SIGINT; …", not "INTERRUPTED: interrupted by".
		if word := string(p.Status); word != "" && strings.HasPrefix(strings.ToLower(reason), strings.ToLower(word)) {
			status += reason[len(word):]
		} else {
			status += ": " + reason
		}
	}
	end := "n/a (did not end)"
	switch {
	case p.TimingNotRecorded:
		end = "n/a (" + notRecorded + ")"
	case p.EndedAt != nil:
		end = duration(p.DurationS)
	case p.Status == result.PhaseSkipped:
		end = "n/a (skipped)"
	}
	pairs := [][2]string{
		{"status", status},
		{"CPUs", cpus},
		{"started", localTime(p.StartedAt)},
		{"duration", end},
	}
	if p.ExitStatus != nil {
		pairs = append(pairs, [2]string{"exit status", strconv.Itoa(*p.ExitStatus)})
	}
	w.KV(pairs...)
}

// renderEvidence writes what the monitor left besides samples.
func renderEvidence(w *textfmt.Writer, p result.Phase, labels map[int]string) {
	fmt.Fprintln(w.W)
	switch {
	case len(p.TimeInState) == 0:
		w.Line("time in state: n/a (no cpufreq statistics for this phase)")
	case allAtTop(p.TimeInState):
		var tops []string
		for _, t := range p.TimeInState {
			tops = append(tops, fmt.Sprintf("%s %.0f MHz", policyName(t.Policy, labels), t.TopMHz))
		}
		w.Line("time in state: every policy at its top clock all the time (%s)", strings.Join(tops, ", "))
	default:
		for _, t := range p.TimeInState {
			w.Line("time in state: %s", timeInState(t, labels))
		}
	}
	w.Line("swap: %s", swapLine(p.SwapIn, p.SwapOut))
	if len(p.Events) == 0 {
		w.Line("kernel events: none")
	} else {
		w.Line("kernel events:")
		for _, e := range p.Events {
			w.Line("    [%s] %s", orDash(e.Kind), e.Line)
		}
	}
	if p.ThrottledBefore != nil || p.ThrottledAfter != nil {
		w.Line("firmware throttling flags: before %s, after %s", throttled(p.ThrottledBefore), throttled(p.ThrottledAfter))
	}
	for _, n := range p.Notes {
		w.Line("note: %s", n)
	}
}

// policyLabels maps cpufreq policy numbers to the monitor's column labels.
func policyLabels(ps []result.Policy) map[int]string {
	out := map[int]string{}
	for _, p := range ps {
		out[p.ID] = p.Label
	}
	return out
}

// timeInState summarises one policy: the time accounted, the part below
// the top clock and, when there is such a part, the time per clock.
func timeInState(t result.PolicyTime, labels map[int]string) string {
	s := fmt.Sprintf("%s %.1f s accounted, %.1f s below the top clock %.0f MHz", policyName(t.Policy, labels), t.TotalS, t.BelowTopS, t.TopMHz)
	if t.TotalS > 0 {
		s += fmt.Sprintf(" (%.1f%%)", 100*t.BelowTopS/t.TotalS)
	}
	if t.BelowTopS <= 0 || len(t.ByMHz) == 0 {
		return s
	}
	type clock struct {
		mhz float64
		key string
		s   float64
	}
	var clocks []clock
	for k, v := range t.ByMHz {
		mhz, err := strconv.ParseFloat(k, 64)
		if err != nil {
			continue
		}
		clocks = append(clocks, clock{mhz, k, v})
	}
	sort.Slice(clocks, func(i, j int) bool { return clocks[i].mhz > clocks[j].mhz })
	var parts []string
	for _, c := range clocks {
		parts = append(parts, fmt.Sprintf("%.0f MHz %.1f s", c.mhz, c.s))
	}
	return s + "; by clock: " + strings.Join(parts, ", ")
}

// allAtTop reports whether no policy spent time below its top clock.
func allAtTop(ts []result.PolicyTime) bool {
	for _, t := range ts {
		if t.BelowTopS > 0 {
			return false
		}
	}
	return true
}

// policyName is "policy4 (cpu4-5)", or "policy4" without a label.
func policyName(id int, labels map[int]string) string {
	name := fmt.Sprintf("policy%d", id)
	if l := labels[id]; l != "" {
		name += " (" + l + ")"
	}
	return name
}

func swapLine(in, out *uint64) string {
	if in == nil && out == nil {
		return "n/a (/proc/vmstat not readable)"
	}
	pages := func(v *uint64, what string) string {
		if v == nil {
			return what + ": n/a"
		}
		return textfmt.Plural(int(*v), "page") + " " + what
	}
	return pages(in, "swapped in") + ", " + pages(out, "swapped out")
}

func throttled(v *uint32) string {
	if v == nil {
		return "n/a (not read)"
	}
	flags := rpi.DecodeThrottled(*v)
	if len(flags) == 0 {
		return fmt.Sprintf("0x%x (none)", *v)
	}
	return fmt.Sprintf("0x%x (%s)", *v, strings.Join(flags, ", "))
}

// renderSamples writes the phase's monitor lines under their header.
func renderSamples(w *textfmt.Writer, cols monitor.Columns, tempLabel string, samples []result.Sample) {
	fmt.Fprintln(w.W)
	if len(samples) == 0 {
		w.Line("monitor: no samples")
		return
	}
	label := ""
	if tempLabel != "" {
		label = ", temperature from " + tempLabel
	}
	w.Line("monitor (%s%s):", textfmt.Plural(len(samples), "sample"), label)
	w.Line("%s", strings.TrimRight(monitor.Header(cols), " "))
	for _, s := range samples {
		w.Line("%s", strings.TrimRight(monitor.Line(cols, monitor.SampleOf(s)), " "))
	}
}
