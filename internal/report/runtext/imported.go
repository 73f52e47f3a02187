package runtext

import (
	"fmt"
	"strconv"
	"strings"

	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// renderImported writes what an imported log told beyond the typed
// figures: where it came from, its validation, the CPU topology, ramlat
// tables, throttling statistics, monitor lines per benchmark and the notes
// on parts that could not be read. The original text is in the JSON
// result (the phase's raw_output).
func renderImported(w *textfmt.Writer, f result.ImportedFigures, rawLines int) {
	fmt.Fprintln(w.W)
	w.KV(
		[2]string{"file", orDash(f.File)},
		[2]string{"format", strings.TrimSpace(f.Format + " " + versionLabel(f.FormatVersion))},
		[2]string{"device", orNA(f.Device, "not named")},
		[2]string{"host name", orNA(f.Hostname, "not named")},
		[2]string{"original text", fmt.Sprintf("%s, kept in the JSON result (raw_output of this phase)", textfmt.Plural(rawLines, "line"))},
	)
	if f.PrintedRow != "" {
		w.Line("results-table row the log printed:")
		w.Line("    %s", f.PrintedRow)
	}
	if len(f.Validation) > 0 {
		fmt.Fprintln(w.W)
		w.Line("the log's validation:")
		for _, v := range f.Validation {
			w.Line("    * %s", v)
		}
	}
	if len(f.Topology) > 0 {
		fmt.Fprintln(w.W)
		t := textfmt.NewTable("CPU", "cluster", "policy", "min MHz", "max MHz", "core type")
		t.RightAlign = map[int]bool{0: true, 1: true, 2: true, 3: true, 4: true}
		for _, c := range f.Topology {
			pol := "-"
			if c.Policy != nil {
				pol = strconv.Itoa(*c.Policy)
			}
			t.Row(strconv.Itoa(c.CPU), strconv.Itoa(c.Cluster), pol, importedNum(c.MinMHz), importedNum(c.MaxMHz), orDash(c.Core))
		}
		w.Line("CPU topology:")
		w.Table(t)
	}
	for _, r := range f.Ramlat {
		fmt.Fprintln(w.W)
		where := "a CPU the log does not name"
		if r.CPU != nil {
			where = "cpu" + strconv.Itoa(*r.CPU)
		}
		if r.Core != "" {
			where += " (" + r.Core + ")"
		}
		w.Line("ramlat on %s, ns per access:", where)
		t := textfmt.NewTable(append([]string{"block"}, r.Columns...)...)
		t.RightAlign = map[int]bool{}
		for k := 0; k <= len(r.Columns); k++ {
			t.RightAlign[k] = true
		}
		for _, row := range r.Rows {
			cells := []string{textfmt.Bytes(row.SizeBytes)}
			for _, v := range row.NS {
				cells = append(cells, importedNum(v))
			}
			t.Row(cells...)
		}
		w.Table(t)
	}
	for _, th := range f.Throttling {
		fmt.Fprintln(w.W)
		who := "all CPUs"
		if th.CPUs != "" {
			who = "CPUs " + th.CPUs
		}
		if th.Core != "" {
			who += " (" + th.Core + ")"
		}
		var parts []string
		for _, o := range th.OPPs {
			if o.Time != nil && *o.Time > 0 {
				parts = append(parts, fmt.Sprintf("%.0f MHz %g %s", o.MHz, *o.Time, th.Unit))
			}
		}
		w.Line("time at each cpufreq OPP, %s: %s", who, orNA(strings.Join(parts, ", "), "none recorded"))
	}
	for _, m := range f.Monitoring {
		fmt.Fprintln(w.W)
		if m.RowsInLog > len(m.Rows) {
			w.Line("monitor lines while running %s (%d of the log's %d lines kept at import):", orDash(m.While), len(m.Rows), m.RowsInLog)
		} else {
			w.Line("monitor lines while running %s:", orDash(m.While))
		}
		t := textfmt.NewTable(m.Columns...)
		for _, row := range m.Rows {
			t.Row(row...)
		}
		w.Table(t)
	}
	if len(f.CPUMinerTotalKHs) > 0 {
		fmt.Fprintln(w.W)
		w.Line("cpuminer total scores (kH/s): %s", joinFloats(f.CPUMinerTotalKHs))
	}
	for _, n := range f.Notes {
		w.Line("note: %s", n)
	}
}

func versionLabel(v string) string {
	if v == "" {
		return "(version not named)"
	}
	return "v" + v
}

// importedNum formats an optional figure of an imported log, "-" when absent.
func importedNum(v *float64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

func joinFloats(vs []float64) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = strconv.FormatFloat(v, 'f', -1, 64)
	}
	return strings.Join(parts, ", ")
}

// importedPairs are the headline lines only an imported result has: the
// cpuminer hash rate its log's row takes.
func importedPairs(r *result.Result) [][2]string {
	imp := r.Summary.ImportedSummary
	if imp == nil || imp.CPUMinerKHs == nil {
		return nil
	}
	return [][2]string{{"cpuminer", fmt.Sprintf("%.2f kH/s, scrypt hash rate (the second highest total score the log lists)", *imp.CPUMinerKHs)}}
}
