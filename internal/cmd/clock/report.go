package clock

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"boardbench/internal/clockcheck"
	"boardbench/internal/inventory/oppsel"
	"boardbench/internal/textfmt"
)

// Report is the result of `boardbench clock`; docs/clock.md describes every
// field.
type Report = clockcheck.Report

// ClusterClock is the measured clock of one cluster (or of one CPU asked
// for with --cpu).
type ClusterClock = clockcheck.ClusterClock

// OPPClock is the measured clock at one pinned cpufreq operating point.
type OPPClock = clockcheck.OPPClock

// mhzOrNA formats a clock, "n/a" when it was not measured or read.
func mhzOrNA(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.0f MHz", *v)
}

// pctOrNA formats a deviation, "n/a" when one of its clocks is missing.
func pctOrNA(v *float64, flagged bool) string {
	if v == nil {
		return "n/a"
	}
	s := fmt.Sprintf("%+.1f%%", *v)
	if flagged {
		s += " !"
	}
	return s
}

// renderText writes the report for people.
func renderText(w io.Writer, rep *Report, color bool) {
	tw := textfmt.New(w, color)
	tw.Section("Clockspeeds")
	anyFirmware, anyUncertain, anyFlag, anyDisturbed := false, false, false, false
	for _, c := range rep.Clusters {
		anyFirmware = anyFirmware || c.FirmwareMHz != nil
		anyUncertain = anyUncertain || (c.MeasuredMHz != nil && !c.Certain)
		anyFlag = anyFlag || c.Flagged
	}
	// The same column names as the clock table of `boardbench report`.
	headers := []string{"cluster", "CPUs", "core", "CPU", "measured", "spread", "kernel", "deviation"}
	if anyFirmware {
		headers = append(headers, "firmware", "fw deviation")
	}
	t := textfmt.NewTable(headers...)
	for i := 4; i < len(headers); i++ {
		t.RightAlign[i] = true
	}
	for _, c := range rep.Clusters {
		cluster := "-"
		if c.Cluster != nil {
			cluster = fmt.Sprint(*c.Cluster)
		}
		on := "-"
		if c.CPU != nil {
			on = fmt.Sprintf("cpu%d", *c.CPU)
		}
		measured := mhzOrNA(c.MeasuredMHz)
		if c.MeasuredMHz != nil && !c.Certain {
			measured += " ?"
		}
		spread := "n/a"
		if c.SpreadPct != nil {
			spread = textfmt.Spread(*c.SpreadPct)
		}
		deviation := pctOrNA(c.DeviationPct, beyondTolerance(c.DeviationPct))
		switch {
		case c.Error != "":
			measured = "failed"
		case c.AllDisturbed():
			// Every sample was disturbed: what they read is not the clock.
			measured, spread, deviation = "disturbed", "n/a", "n/a"
			anyDisturbed = true
		}
		row := []string{cluster, formatCPUList(c.CPUs), textfmt.OrUnknown(c.Core), on, measured, spread,
			mhzOrNA(c.ReportedMHz), deviation}
		if anyFirmware {
			row = append(row, mhzOrNA(c.FirmwareMHz), pctOrNA(c.FirmwareDeviationPct, beyondTolerance(c.FirmwareDeviationPct)))
		}
		t.Row(row...)
	}
	tw.Table(t)
	if len(rep.Clusters) > 0 {
		c := rep.Clusters[0]
		method := fmt.Sprintf("method: %s", c.Method)
		if c.SampleMs != nil {
			method += fmt.Sprintf(", %d samples of %.1f ms each (median shown)", len(c.Samples), *c.SampleMs)
		}
		tw.Line("%s", method)
		if src := c.ReportedSource; src != "" {
			tw.Line("kernel: %s read right after measuring", src)
		}
	}
	if anyUncertain {
		tw.Line("? the portable kernel's cycles per add are not known on this architecture: indicative only")
	}
	if anyFlag {
		tw.Line("! measured clock differs from the reported one by more than %.0f%%", TolerancePct)
	}
	if anyDisturbed {
		tw.Line("disturbed: other tasks took the CPU during every sample; no clock was measured (run again on a quiet machine)")
	}
	for _, c := range rep.Clusters {
		if c.Error != "" {
			tw.Line("%s: %s", clusterTitle(c), c.Error)
		}
	}
	for _, c := range rep.Clusters {
		if c.OPPSelection != nil && c.OPPs == nil {
			tw.Line("%s: boot voltage selection %s (kernel log)", clusterTitle(c), c.OPPSelection.Text())
		}
	}
	for _, c := range rep.Clusters {
		if c.OPPs == nil {
			continue
		}
		title := clusterTitle(c)
		if c.CPU != nil {
			title += fmt.Sprintf(", measured on cpu%d", *c.CPU)
		}
		tw.Section("OPPs of " + title)
		if c.OPPSelection != nil {
			tw.Line("boot voltage selection: %s (kernel log; it chose these OPPs' voltages, see docs/clock.md)", c.OPPSelection.Text())
		}
		writeOPPs(tw, c.OPPs, c.OPPSelection)
	}
	if len(rep.Notes) > 0 {
		tw.Section("Notes")
		for _, n := range rep.Notes {
			tw.Line("%s: %s", n.Item, n.Reason)
		}
	}
}

func clusterTitle(c ClusterClock) string {
	var b strings.Builder
	if c.Cluster != nil {
		fmt.Fprintf(&b, "cluster %d (cpu%s", *c.Cluster, formatCPUList(c.CPUs))
		if c.Core != "" {
			fmt.Fprintf(&b, ", %s", c.Core)
		}
		b.WriteString(")")
		return b.String()
	}
	fmt.Fprintf(&b, "cpu%s", formatCPUList(c.CPUs))
	if c.Core != "" {
		fmt.Fprintf(&b, " (%s)", c.Core)
	}
	return b.String()
}

// writeOPPs writes one line per OPP: "Cpufreq OPP: 2400  Measured: 2348
// (-2.2%)", with the device tree's voltage for the OPP when sel has one
// ("Cpufreq OPP: 2400 (1000 mV)  Measured: …").
func writeOPPs(tw *textfmt.Writer, opps []OPPClock, sel *oppsel.Device) {
	width := 0
	for _, o := range opps {
		if n := len(fmt.Sprintf("%.0f", o.RequestedMHz)); n > width {
			width = n
		}
	}
	for _, o := range opps {
		line := fmt.Sprintf("Cpufreq OPP: %*.0f  Measured: ", width, o.RequestedMHz)
		if mv := sel.VoltageAt(o.RequestedMHz); mv != nil {
			line = fmt.Sprintf("Cpufreq OPP: %*.0f (%s mV)  Measured: ", width, o.RequestedMHz, strconv.FormatFloat(*mv, 'f', -1, 64))
		}
		switch {
		case o.Error != "":
			line += o.Error
		case o.MeasuredMHz != nil:
			line += fmt.Sprintf("%*.0f", width, *o.MeasuredMHz)
			if o.DeviationPct != nil {
				line += fmt.Sprintf(" (%+.1f%%)", *o.DeviationPct)
			}
			if o.Flagged {
				line += " !"
			}
			if o.ReportedMHz != nil && !within(*o.ReportedMHz, o.RequestedMHz, 0.5) {
				line += fmt.Sprintf("  kernel reports %.0f MHz", *o.ReportedMHz)
			}
		}
		tw.Line("%s", line)
	}
}

// within reports whether a and b differ by at most pct percent of b.
func within(a, b, pct float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	return d <= b*pct/100
}
