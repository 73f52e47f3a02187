package monitor

import (
	"fmt"
	"io"
	"math"
	"strings"

	"boardbench/internal/monitor"
	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// writeSummary prints how the command ended, the range of what was
// sampled, the findings and the verdict (to standard error, so that the
// command's own output on standard output stays clean).
func writeSummary(w io.Writer, res *result.Result, p result.Phase, cfg monitor.Config, path string) {
	how := "ended"
	switch {
	case p.Status == result.PhaseOK:
		how = "finished (exit status 0)"
	case p.Reason != "":
		how = p.Reason
	}
	// Every line is wrapped to textfmt.MaxWidth; continuation lines are
	// indented under the text they continue.
	line := func(first, rest, text string) { fmt.Fprint(w, textfmt.Indent(text, first, rest, textfmt.MaxWidth)) }
	fmt.Fprintln(w)
	line("", "  ", fmt.Sprintf("%s %s after %.1f s; %d samples", p.Title, how, p.DurationS, len(p.Samples)))
	var ranges []string
	for i, pol := range cfg.Policies {
		ranges = append(ranges, rangeOf(pol.Label, "MHz", "%.0f", p.Samples, func(s result.Sample) *float64 {
			if i < len(s.ClockMHz) {
				return s.ClockMHz[i]
			}
			return nil
		}))
	}
	if cfg.Firmware != nil {
		ranges = append(ranges, rangeOf("firmware", "MHz", "%.0f", p.Samples, func(s result.Sample) *float64 { return s.FirmwareMHz }))
	}
	ranges = append(ranges,
		rangeOf("temperature", "°C", "%.1f", p.Samples, func(s result.Sample) *float64 { return s.TempC }),
		rangeOf("cpu busy (share of all cores' time)", "%", "%.0f", p.Samples, func(s result.Sample) *float64 { return s.CPUPct }))
	var kept []string
	for _, r := range ranges {
		if r != "" {
			kept = append(kept, r)
		}
	}
	if len(kept) > 0 {
		line("  ", "    ", strings.Join(kept, "; "))
	}
	for _, n := range p.Notes {
		line("  ", "        ", "note: "+n)
	}
	if l := figuresLine(res, path); l != "" {
		line("  ", "    ", l)
	}
	if len(res.Findings) == 0 {
		fmt.Fprintln(w, "Findings: none")
	} else {
		fmt.Fprintln(w, "Findings:")
		for _, f := range res.Findings {
			// The one style of findings in every text view, as run's.
			for _, l := range f.TextLines() {
				ind := "  " + strings.Repeat(" ", l.Indent)
				line(ind, ind+"    ", l.Text)
			}
		}
	}
	line("", "  ", "Verdict: "+res.Summary.Verdict)
	if path == "" {
		line("", "  ", fmt.Sprintf("Result: not written to any file (%s); the JSON follows on standard output", res.Status))
		return
	}
	line("", "  ", fmt.Sprintf("Result: %s (%s)", path, res.Status))
}

// rangeOf formats the smallest and largest value of a sampled quantity,
// "" when no sample has it. The first sample is skipped for percentages
// because it covers the time before the phase.
func rangeOf(label, unit, format string, samples []result.Sample, get func(result.Sample) *float64) string {
	lo, hi := math.Inf(1), math.Inf(-1)
	for i, s := range samples {
		if unit == "%" && i == 0 {
			continue
		}
		if v := get(s); v != nil {
			lo, hi = math.Min(lo, *v), math.Max(hi, *v)
		}
	}
	if math.IsInf(lo, 1) {
		return ""
	}
	if lo == hi {
		return fmt.Sprintf("%s "+format+" %s", label, lo, unit)
	}
	return fmt.Sprintf("%s "+format+"–"+format+" %s", label, lo, hi, unit)
}
