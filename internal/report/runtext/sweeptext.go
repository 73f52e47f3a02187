package runtext

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"

	"boardbench/internal/inventory/cpu"
	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// sweepSamePerfPct is how close (in percent) a lower clock's MIPS must come
// to a higher one's for the higher clock to give "no more performance".
const sweepSamePerfPct = 1.0

// renderSweep writes the efficiency tables of a sweep.
func renderSweep(w *textfmt.Writer, r *result.Result) {
	if r.Summary.SweepSummary == nil {
		return
	}
	w.Section("Efficiency (clock sweep)")
	if opt, ok := r.Options["cpufreq"].(bool); ok && !opt {
		w.Line("No cpufreq clocks to set: measured at the one clock this machine runs at.")
	}
	var b strings.Builder
	WriteSweep(&b, r.Summary.Sweep)
	for _, l := range strings.SplitAfter(b.String(), "\n") {
		if strings.TrimSpace(l) == "" {
			fmt.Fprint(w.W, l)
			continue
		}
		fmt.Fprint(w.W, "  "+l)
	}
}

// renderSweepFigures writes one sweep phase: the clocks and voltage, then
// the 7-Zip run.
func renderSweepFigures(w *textfmt.Writer, f result.SweepFigures) {
	fmt.Fprintln(w.W)
	line := fmt.Sprintf("clock: asked %s, cpufreq %s, measured %s", textfmt.MHz(f.RequestedMHz), textfmt.MHz(f.ReportedMHz), textfmt.MHz(f.MeasuredMHz))
	if f.FirmwareMHz != nil {
		line += ", firmware " + textfmt.MHz(f.FirmwareMHz)
	}
	if f.CoreVolts != nil {
		line += fmt.Sprintf("; core %.4f V (%s)", *f.CoreVolts, f.VoltsSource)
	}
	w.Line("%s", line)
	for _, n := range f.Notes {
		w.Line("note: %s", n)
	}
	renderSevenZip(w, f.SevenZip, true)
}

// sweepGroup is the rows of one policy and thread count.
type sweepGroup struct {
	policy  *int
	threads int
	cpus    []int
	rows    []result.SweepRow
}

// WriteSweep writes the rows of a sweep as tables in the format of a
// published clock sweep, lowest clock first, one table per cpufreq policy
// and thread count:
//
//	Sysfs/ThreadX/Tested: MIPS / Temp / Watt / MIPS/W
//	600 / 600 / 600: 511 37.4°C 1280mW 399.2
//
// The firmware (ThreadX) column appears only when a row has a firmware
// clock. A row of several passes ends with their number and the range of
// the MIPS that count, "[3 passes: MIN–MAX MIPS]", and names the passes
// set aside as disturbed. Each table ends with the most efficient clock
// and the clocks that cost more power for no more performance.
func WriteSweep(w io.Writer, rows []result.SweepRow) {
	if len(rows) == 0 {
		fmt.Fprintln(w, "No measurement finished.")
		return
	}
	var groups []*sweepGroup
	for _, row := range rows {
		var g *sweepGroup
		for _, c := range groups {
			if samePolicy(c.policy, row.Policy) && c.threads == row.Threads {
				g = c
			}
		}
		if g == nil {
			g = &sweepGroup{policy: row.Policy, threads: row.Threads, cpus: row.CPUs}
			groups = append(groups, g)
		}
		g.rows = append(g.rows, row)
	}
	firmware := slices.ContainsFunc(rows, func(r result.SweepRow) bool { return r.FirmwareMHz != nil })
	havePower := slices.ContainsFunc(rows, func(r result.SweepRow) bool { return r.PowerW != nil })
	for i, g := range groups {
		if i > 0 {
			fmt.Fprintln(w)
		}
		title := fmt.Sprintf("%s on cpu%s", textfmt.Plural(g.threads, "thread"), cpu.FormatCPUList(g.cpus))
		if g.policy != nil {
			title = fmt.Sprintf("policy%d, %s", *g.policy, title)
		}
		fmt.Fprintln(w, title+":")
		head := "Sysfs/Tested: MIPS / Temp / Watt / MIPS/W"
		if firmware {
			head = "Sysfs/ThreadX/Tested: MIPS / Temp / Watt / MIPS/W"
		}
		fmt.Fprintln(w, head)
		sorted := slices.Clone(g.rows)
		slices.SortStableFunc(sorted, func(a, b result.SweepRow) int { return cmp.Compare(clockOf(a), clockOf(b)) })
		for _, row := range sorted {
			cols := []string{mhzCol(row.ReportedMHz)}
			if firmware {
				cols = append(cols, mhzCol(row.FirmwareMHz))
			}
			cols = append(cols, mhzCol(row.MeasuredMHz))
			line := fmt.Sprintf("%s: %s %s %s %s", strings.Join(cols, " / "), num(row.MIPS, "%.0f"), num(row.TempC, "%.1f°C"),
				milliwatts(row.PowerW), num(row.MIPSPerW, "%.1f"))
			line += passesNote(row)
			if row.Disturbed {
				// every pass measured under disturbance: no clock, no MIPS
				line += " (disturbed, not a figure: " + row.Reason + ")"
			}
			fmt.Fprintln(w, line)
		}
		if !havePower {
			continue
		}
		if best := mostEfficient(sorted); best != nil {
			fmt.Fprintf(w, "most efficient: %s MHz, %.1f MIPS/W\n", mhzCol(clockPtr(*best)), *best.MIPSPerW)
		}
		if waste := noGain(sorted); len(waste) > 0 {
			fmt.Fprintf(w, "no more performance for more power: %s\n", strings.Join(waste, ", "))
		}
	}
	if !havePower {
		fmt.Fprintln(w, "\nWatts and MIPS/W unknown: no power source was read (see docs/power.md).")
	}
}

// passesNote describes a row of several passes: how many, the range of
// the MIPS that count, and the passes set aside as disturbed; "" for a row
// of one pass that counts.
func passesNote(row result.SweepRow) string {
	var parts []string
	if row.Passes > 1 {
		p := textfmt.Plural(row.Passes, "pass", "passes")
		if row.MIPSMin != nil && row.MIPSMax != nil {
			p += fmt.Sprintf(": %.0f–%.0f MIPS", *row.MIPSMin, *row.MIPSMax)
		}
		parts = append(parts, p)
	}
	if n := len(row.DisturbedPasses); n > 0 && !row.Disturbed {
		nums := make([]string, n)
		for i, v := range row.DisturbedPasses {
			nums[i] = fmt.Sprint(v)
		}
		word := "pass"
		if n > 1 {
			word = "passes"
		}
		parts = append(parts, fmt.Sprintf("%s %s disturbed, left out: %s", word, strings.Join(nums, ", "), row.Reason))
	}
	if len(parts) == 0 {
		return ""
	}
	return " [" + strings.Join(parts, "; ") + "]"
}

// mostEfficient returns the row with the most MIPS per watt, nil without one.
func mostEfficient(rows []result.SweepRow) *result.SweepRow {
	var best *result.SweepRow
	for i := range rows {
		r := &rows[i]
		if r.MIPSPerW != nil && (best == nil || *r.MIPSPerW > *best.MIPSPerW) {
			best = r
		}
	}
	return best
}

// noGain lists the clocks whose MIPS another clock of the group reaches
// (within sweepSamePerfPct) with less power, described "1000 MHz (835
// MIPS at 1.61 W; 900 MHz: 835 MIPS at 1.57 W)".
func noGain(rows []result.SweepRow) []string {
	var out []string
	for _, a := range rows {
		if a.MIPS == nil || a.PowerW == nil {
			continue
		}
		for _, b := range rows {
			if b.MIPS == nil || b.PowerW == nil || *b.PowerW >= *a.PowerW {
				continue
			}
			if *b.MIPS >= *a.MIPS*(1-sweepSamePerfPct/100) {
				out = append(out, fmt.Sprintf("%s MHz (%.0f MIPS at %.2f W; %s MHz: %.0f MIPS at %.2f W)",
					mhzCol(clockPtr(a)), *a.MIPS, *a.PowerW, mhzCol(clockPtr(b)), *b.MIPS, *b.PowerW))
				break
			}
		}
	}
	return out
}

func samePolicy(a, b *int) bool {
	return (a == nil && b == nil) || (a != nil && b != nil && *a == *b)
}

// clockPtr is the clock a row stands for: the OPP asked for, else the
// reported, else the measured one.
func clockPtr(r result.SweepRow) *float64 {
	for _, v := range []*float64{r.RequestedMHz, r.ReportedMHz, r.MeasuredMHz} {
		if v != nil {
			return v
		}
	}
	return nil
}

func clockOf(r result.SweepRow) float64 {
	if v := clockPtr(r); v != nil {
		return *v
	}
	return 0
}

func mhzCol(v *float64) string { return num(v, "%.0f") }

func num(v *float64, format string) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf(format, *v)
}

func milliwatts(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.0fmW", *v*1000)
}
