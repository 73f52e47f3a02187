package mem

import (
	"fmt"
	"io"
	"strings"

	"boardbench/internal/inventory/cpu"
	"boardbench/internal/probe/membw"
	"boardbench/internal/report/runtext"
	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// render writes the text report.
func render(w io.Writer, rep Report, color bool) {
	tw := textfmt.New(w, color)
	for i, r := range rep.Results {
		title := fmt.Sprintf("Memory from cpu%d", r.CPU)
		if r.Core != "" {
			title += " (" + r.Core + ")"
		}
		tw.Section(title)
		tw.Line("Bandwidth over %s buffers (1 MB = 10^6 bytes; median of the samples, ± their spread when above 0.1%%)", textfmt.Bytes(r.BufferBytes))
		tw.Table(bandwidthTable(r.MemBandwidth))
		var mc *result.MemClock
		if i < len(rep.MemClock) {
			mc = rep.MemClock[i]
		}
		tw.Line("Memory clock during the measurement: %s", runtext.MemClockText(mc))
		if len(r.Latency) > 0 {
			fmt.Fprintln(tw.W)
			tw.Line("Latency, random pointer chasing (ns per access; dual: two chains at once, ns per step)")
			tw.Table(latencyTable(r.Latency))
			fmt.Fprintln(tw.W)
			from := "normal pages"
			if r.CacheLevelsFrom == "ns_hugepage" {
				from = "huge pages"
			}
			tw.Line("Cache levels seen in the latency curve (%s) and the sizes sysfs reports", from)
			tw.Table(levelsTable(r))
			if r.LatencyStillRising {
				tw.Line("The latency was still rising at the largest block.")
			}
		}
	}
	if t := rep.Total; t != nil {
		tw.Section(fmt.Sprintf("Bandwidth of all CPUs at once (%s, %s per CPU and buffer)", cpuSetLabel(t.CPUs), textfmt.Bytes(t.SliceBytes)))
		tw.Table(bandwidthTable(t.MemBandwidth))
		tw.Line("Memory clock during the measurement: %s", runtext.MemClockText(rep.TotalMemClock))
	}
	if len(rep.Results) > 0 || rep.Total != nil {
		tw.Section("How to compare")
		for _, l := range runtext.MemoryCompareNotes() {
			tw.Line("%s", l)
		}
	}
	var notes []string
	for _, n := range rep.Notes {
		notes = append(notes, n.Item+": "+n.Reason)
	}
	for _, r := range rep.Results {
		for _, n := range r.Notes {
			notes = append(notes, fmt.Sprintf("cpu%d %s", r.CPU, n))
		}
	}
	if t := rep.Total; t != nil {
		for _, n := range t.Notes {
			notes = append(notes, "all CPUs "+n)
		}
	}
	if len(notes) > 0 {
		tw.Section("Notes")
		for _, n := range notes {
			tw.Line("%s", n)
		}
	}
}

func cpuSetLabel(cpus []int) string {
	if len(cpus) == 1 {
		return fmt.Sprintf("cpu%d", cpus[0])
	}
	return "cpus " + cpu.FormatCPUList(cpus)
}

func bandwidthTable(b result.MemBandwidth) *textfmt.Table {
	t := textfmt.NewTable("kernel", "bandwidth", "spread")
	t.RightAlign[1], t.RightAlign[2] = true, true
	for _, k := range membw.AllKernels {
		var mbs, sd *float64
		if m, d := b.Slots(string(k)); m != nil {
			mbs, sd = *m, *d
		}
		val, spread := "n/a", ""
		if mbs != nil {
			val = fmt.Sprintf("%.1f MB/s", *mbs)
			if sd != nil && *sd > 0.1 {
				spread = textfmt.Spread(*sd)
			}
		}
		t.Row(k.Label(), val, spread)
	}
	return t
}

func ns(v *float64) string {
	if v == nil {
		return "-"
	}
	if *v >= 100 {
		return fmt.Sprintf("%.0f ns", *v)
	}
	return fmt.Sprintf("%.1f ns", *v)
}

func latencyTable(pts []result.LatencyRow) *textfmt.Table {
	huge := false
	for _, p := range pts {
		if p.NSHugePage != nil {
			huge = true
		}
	}
	headers := []string{"block", "single", "dual"}
	if huge {
		headers = append(headers, "single huge", "dual huge")
	}
	t := textfmt.NewTable(headers...)
	for i := range headers {
		t.RightAlign[i] = true
	}
	for _, p := range pts {
		row := []string{textfmt.Bytes(p.SizeBytes), ns(p.NS), ns(p.NSDual)}
		if huge {
			row = append(row, ns(p.NSHugePage), ns(p.NSDualHugePage))
		}
		t.Row(row...)
	}
	return t
}

func levelsTable(r result.MemFigures) *textfmt.Table {
	t := textfmt.NewTable("step", "fits up to", "latency", "sysfs")
	t.RightAlign[1], t.RightAlign[2] = true, true
	matched := map[int]bool{}
	for i, l := range r.CacheLevels {
		sys := "no matching cache"
		if l.SysfsLevel != nil && l.SysfsBytes != nil {
			sys = fmt.Sprintf("L%d %s", *l.SysfsLevel, textfmt.Bytes(*l.SysfsBytes))
			matched[*l.SysfsLevel] = true
		}
		v := l.LatencyNS
		t.Row(fmt.Sprint(i+1), textfmt.Bytes(l.DetectedBytes), ns(&v), sys)
	}
	var missing []string
	for _, c := range r.SysfsCaches {
		if !matched[c.Level] {
			missing = append(missing, fmt.Sprintf("L%d %s", c.Level, textfmt.Bytes(c.SizeBytes)))
		}
	}
	if len(missing) > 0 {
		t.Row("-", "no step", "", strings.Join(missing, ", "))
	}
	if len(r.SysfsCaches) == 0 {
		t.Row("", "", "", "sysfs lists no caches")
	}
	return t
}
