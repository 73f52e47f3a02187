package reference

import (
	"fmt"
	"strings"

	"boardbench/internal/textfmt"
)

// RenderPlacement writes a placement as the "Among published results"
// section of a text report: one line per figure, then the causes of each
// figure that falls clearly below.
func RenderPlacement(w *textfmt.Writer, p Placement) {
	w.Section("Among published results (reference set of sbc-bench logs)")
	if p.NotPlaced != "" {
		w.Line("%s.", p.NotPlaced)
		return
	}
	if p.Basis == BasisCores {
		w.Line("SECOND BEST — %s.", p.Note)
	} else {
		w.Line("SoC %s:", p.Group)
	}
	t := textfmt.NewTable("figure", "this result", "n", "median", "p10–p90", "percentile", "population")
	for _, f := range p.Figures {
		t.Row(f.Label, num(f.Value, f.Unit), fmt.Sprint(f.N), num(f.Median, f.Unit), rangeText(f), pctText(f), f.Population)
	}
	w.Table(t)
	var few []string
	for _, f := range p.Figures {
		switch {
		case f.N > 0 && f.N < MinForPercentile:
			few = append(few, f.Label)
		case f.Note != "":
			w.Line("%s: %s.", f.Label, f.Note)
		}
	}
	if len(few) > 0 {
		w.Line("Fewer than %d reference results for %s: no percentile from so few.", MinForPercentile, strings.Join(few, ", "))
	}
	for _, f := range p.Figures {
		if !f.Below {
			continue
		}
		w.Line("%s is clearly below: %.0f%% under the median (%s).", f.Label, 100*f.Gap, GapRule())
		for i, c := range f.Causes {
			share := ""
			if c.Explains != nil {
				share = fmt.Sprintf(" (can explain up to %.0f%% of the gap)", 100**c.Explains)
			}
			w.Line("  %d. %s%s: %s.", i+1, c.Name, share, c.Evidence)
		}
		switch {
		case f.NoCause != "" && len(f.Causes) == 0:
			w.Line("  No measured cause: %s.", f.NoCause)
		case f.NoCause != "":
			w.Line("  %s.", upperFirst(f.NoCause))
		}
	}
}

// GapRule states the rule a figure is judged clearly below by.
func GapRule() string {
	return fmt.Sprintf("rule: more than %.0f%% below the median and below the 25th percentile, or below every result when there are %d–%d",
		100*GapShare, MinForGap, MinForPercentile-1)
}

func num(v *float64, unit string) string {
	if v == nil {
		return "unknown"
	}
	return FormatValue(*v, unit)
}

// FormatValue formats a figure with its unit.
func FormatValue(v float64, unit string) string {
	if unit == "MB/s" && v < 100 {
		return fmt.Sprintf("%.1f %s", v, unit)
	}
	return fmt.Sprintf("%.0f %s", v, unit)
}

func rangeText(f FigurePlacement) string {
	switch {
	case f.N == 0:
		return "–"
	case f.P10 == nil:
		return fmt.Sprintf("(n < %d)", MinForPercentile)
	}
	return fmt.Sprintf("%.0f–%.0f", *f.P10, *f.P90)
}

func pctText(f FigurePlacement) string {
	switch {
	case f.Value == nil || f.N == 0:
		return "–"
	case f.Percentile == nil:
		return "none (n < 5)"
	}
	return ordinal(*f.Percentile)
}

func ordinal(p float64) string {
	n := int(p + 0.5)
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1:
			suffix = "st"
		case 2:
			suffix = "nd"
		case 3:
			suffix = "rd"
		}
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// Summary describes a group in one line: its SoC and the number of usable
// results.
func Summary(g Group) string {
	n := 0
	for _, e := range g.Entries {
		if e.Usable() {
			n++
		}
	}
	var disturbed []string
	if d := len(g.Entries) - n; d > 0 {
		disturbed = append(disturbed, fmt.Sprintf("%d left out as disturbed", d))
	}
	s := fmt.Sprintf("%s: %d result%s", g.Label, n, plural(n))
	if len(disturbed) > 0 {
		s += " (" + strings.Join(disturbed, ", ") + ")"
	}
	return s
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
