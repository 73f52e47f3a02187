package compare

import (
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/textfmt"
)

// BeyondMark marks a change beyond the recorded run-to-run spread.
const BeyondMark = "*"

// formatValue prints a figure with the precision its size needs.
func formatValue(v *float64) string {
	if v == nil {
		return "-"
	}
	switch a := abs(*v); {
	case a >= 100:
		return strconv.FormatFloat(*v, 'f', 0, 64)
	case a >= 10:
		return strconv.FormatFloat(*v, 'f', 1, 64)
	default:
		return strconv.FormatFloat(*v, 'f', 2, 64)
	}
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// Cell returns figure f's cell of result i: the value, and from the
// second result on the change in percent, with BeyondMark when it is
// beyond the spread.
func (f Figure) Cell(i int) string {
	s := formatValue(f.Values[i])
	if i > 0 && i < len(f.NotComparable) && f.NotComparable[i] {
		return s + " (not comparable)"
	}
	if i > 0 && f.ChangePct[i] != nil {
		s += fmt.Sprintf(" (%+.1f%%)", *f.ChangePct[i])
		if f.BeyondSpread[i] {
			s += BeyondMark
		}
	}
	return s
}

// Label returns the figure's row label: name, core type and unit.
func (f Figure) Label() string {
	s := f.Name
	if f.Core != "" {
		s += " " + f.Core
	}
	if f.Unit != "" {
		s += " (" + f.Unit + ")"
	}
	return s
}

// Differing returns the conditions that differ.
func (c *Comparison) Differing() []Condition {
	var out []Condition
	for _, x := range c.Conditions {
		if x.Differs {
			out = append(out, x)
		}
	}
	return out
}

func (c *Comparison) headers(first string) []string {
	h := []string{first}
	for _, r := range c.Results {
		h = append(h, r.Label)
	}
	return h
}

// orDash returns s, or "unknown" for a value the result does not know
// (the one word every text view uses).
func orDash(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// WriteText writes the comparison as text tables: the results, the
// conditions that differ, the figures, and a note on the marks.
func (c *Comparison) WriteText(w io.Writer) {
	t := textfmt.NewTable(c.headers("")...)
	row := func(name string, f func(Column) string) {
		cells := []string{name}
		for _, r := range c.Results {
			cells = append(cells, f(r))
		}
		t.Row(cells...)
	}
	row("board", func(r Column) string { return orDash(r.Board) })
	row("SoC", func(r Column) string { return orDash(r.SoC) })
	row("kind", func(r Column) string { return r.Kind })
	row("date", func(r Column) string { return r.CreatedAt.UTC().Format("2006-01-02 15:04") })
	row("id", func(r Column) string { return shortID(r.ID) })
	t.Write(w)
	fmt.Fprintln(w)
	diff := c.Differing()
	if len(diff) == 0 {
		fmt.Fprintln(w, "Conditions: the same in every result.")
	} else {
		fmt.Fprintln(w, "Conditions that differ:")
		ct := textfmt.NewTable(c.headers("")...)
		for _, x := range diff {
			cells := []string{x.Name}
			for _, v := range x.Values {
				cells = append(cells, orDash(v))
			}
			ct.Row(cells...)
		}
		ct.Write(w)
	}
	fmt.Fprintln(w)
	if len(c.Figures) == 0 {
		fmt.Fprintln(w, "Figures: none of the results has headline figures.")
		return
	}
	fmt.Fprintln(w, "Figures (change against the first result):")
	ft := textfmt.NewTable(c.headers("")...)
	ft.RightAlign = map[int]bool{}
	for i := range c.Results {
		ft.RightAlign[i+1] = true
	}
	for _, f := range c.Figures {
		cells := []string{f.Label()}
		for i := range c.Results {
			cells = append(cells, f.Cell(i))
		}
		ft.Row(cells...)
	}
	ft.Write(w)
	fmt.Fprintln(w)
	fmt.Fprint(w, textfmt.Indent(BeyondMark+" the change is larger than the run-to-run spread the results record (for a figure without one: the largest spread of the two results, at least 5 %)", "  ", "    ", textfmt.MaxWidth))
	for _, n := range c.Notes {
		fmt.Fprint(w, textfmt.Indent(n, "  note: ", "        ", textfmt.MaxWidth))
	}
}

func shortID(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return orDash(id)
}

// WriteMarkdown writes the comparison as markdown tables for a review:
// the conditions that differ, then the figures.
func (c *Comparison) WriteMarkdown(w io.Writer) {
	mdRow := func(cells []string) {
		for i, s := range cells {
			cells[i] = textfmt.MarkdownText(s) // "|" escaped, no live links or HTML
		}
		fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |")
	}
	sep := func(right bool) {
		cells := []string{"---"}
		for range c.Results {
			if right {
				cells = append(cells, "---:")
			} else {
				cells = append(cells, "---")
			}
		}
		fmt.Fprintln(w, "| "+strings.Join(cells, " | ")+" |")
	}
	labels := []string{""}
	for _, r := range c.Results {
		labels = append(labels, orDash(r.Board)+" ("+r.Label+")")
	}
	mdRow(labels)
	sep(false)
	for _, x := range c.Differing() {
		cells := []string{"**" + x.Name + "**"}
		for _, v := range x.Values {
			cells = append(cells, orDash(v))
		}
		mdRow(cells)
	}
	fmt.Fprintln(w)
	labels[0] = "Figure"
	mdRow(slices.Clone(labels))
	sep(true)
	for _, f := range c.Figures {
		cells := []string{f.Label()}
		for i := range c.Results {
			cells = append(cells, f.Cell(i))
		}
		mdRow(cells)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Changes against the first result; "+BeyondMark+" marks a change larger than the run-to-run spread the results record (for a figure without one: the largest spread of the two results, at least 5 %).")
	for _, n := range c.Notes {
		fmt.Fprintln(w, "\nNote: "+n+".")
	}
}
