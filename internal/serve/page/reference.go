package page

import (
	"fmt"
	"html/template"
	"io"
	"math"
	"strings"

	"boardbench/internal/reference"
	"boardbench/internal/result"
)

// Placement is the result page's "among published results" block.
type Placement struct {
	reference.Placement
	// Key is the reference group's key, for the per-SoC page's address
	// ("" on the core-configuration fallback); Err says why the set
	// could not be read.
	Key, Err string
	Rule     string
	// ResultID is the placed result's id, marked on the per-SoC page.
	ResultID string
	Strips   []Strip
}

// Strip is one figure's distribution drawn, with a row of text.
type Strip struct {
	reference.FigurePlacement
	Range, Percentile, ValueText, MedianText string
	SVG                                      template.HTML
}

// buildPlacement places r among the reference set; nil when r's command
// has no placed figures.
func buildPlacement(r *result.Result) *Placement {
	if !reference.Applies(r) {
		return nil
	}
	set, err := reference.Embedded()
	if err != nil {
		return &Placement{Err: err.Error()}
	}
	pl := set.Place(r)
	p := &Placement{Placement: pl, Rule: reference.GapRule()}
	if pl.Basis == reference.BasisSoC {
		p.Key = reference.SoCKey(pl.Group)
	}
	for _, f := range pl.Figures {
		var mark *float64
		if f.Value != nil {
			mark = f.Value
		}
		p.Strips = append(p.Strips, newStrip(f, mark))
	}
	return p
}

func newStrip(f reference.FigurePlacement, mark *float64) Strip {
	s := Strip{FigurePlacement: f, Range: "–", Percentile: "–", ValueText: "unknown", MedianText: "–", SVG: StripSVG(f, mark)}
	if f.Value != nil {
		s.ValueText = reference.FormatValue(*f.Value, f.Unit)
	}
	if f.Median != nil {
		s.MedianText = reference.FormatValue(*f.Median, f.Unit)
	}
	switch {
	case f.P10 != nil:
		s.Range = fmt.Sprintf("%.0f–%.0f", *f.P10, *f.P90)
	case f.N > 0:
		s.Range = fmt.Sprintf("n < %d", reference.MinForPercentile)
	}
	switch {
	case f.Percentile != nil:
		s.Percentile = fmt.Sprintf("%.0f", *f.Percentile)
	case f.Value != nil && f.N > 0:
		s.Percentile = fmt.Sprintf("none (n < %d)", reference.MinForPercentile)
	}
	return s
}

// StripSVG draws a figure's reference values as a strip: one dot per
// result, the 10th–90th percentile range as a box with the median as a
// line, and mark (this result; nil for none) as a red diamond. It is
// drawn by boardbench from numbers only (no text from the data).
func StripSVG(f reference.FigurePlacement, mark *float64) template.HTML {
	if f.N == 0 {
		return ""
	}
	const w, h, pad = 520.0, 46.0, 14.0
	lo, hi := f.Values[0], f.Values[len(f.Values)-1]
	if mark != nil {
		lo, hi = math.Min(lo, *mark), math.Max(hi, *mark)
	}
	if hi <= lo {
		lo, hi = lo*0.95, hi*1.05+1
	}
	x := func(v float64) float64 { return pad + (v-lo)/(hi-lo)*(w-2*pad) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" role="img">`, w, h, w, h)
	fmt.Fprintf(&b, `<line x1="%.1f" y1="30" x2="%.1f" y2="30" stroke="#8c959f"/>`, pad, w-pad)
	if f.P10 != nil {
		fmt.Fprintf(&b, `<rect x="%.1f" y="14" width="%.1f" height="14" fill="#ddf4ff" stroke="#54aeff"/>`, x(*f.P10), math.Max(1, x(*f.P90)-x(*f.P10)))
	}
	if f.Median != nil {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="10" x2="%.1f" y2="32" stroke="#0969da" stroke-width="2"/>`, x(*f.Median), x(*f.Median))
	}
	for _, v := range f.Values {
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="21" r="3" fill="#57606a" fill-opacity="0.7"/>`, x(v))
	}
	if mark != nil {
		mx := x(*mark)
		fmt.Fprintf(&b, `<path d="M%.1f 13 L%.1f 21 L%.1f 29 L%.1f 21 Z" fill="#cf222e"/>`, mx, mx+6, mx, mx-6)
	}
	fmt.Fprintf(&b, `<text x="%.1f" y="43" font-size="10" fill="#57606a">%s</text>`, pad, template.HTMLEscapeString(reference.FormatValue(lo, f.Unit)))
	fmt.Fprintf(&b, `<text x="%.1f" y="43" font-size="10" fill="#57606a" text-anchor="end">%s</text>`, w-pad, template.HTMLEscapeString(reference.FormatValue(hi, f.Unit)))
	b.WriteString(`</svg>`)
	return template.HTML(b.String())
}

// SoCPage is the per-SoC reference page of `boardbench serve`.
type SoCPage struct {
	Frame
	Label, Key, Cores string
	Results, Left     int
	// Marked names the result marked on the strips ("" for none); its
	// link goes back to its page.
	Marked, MarkedID string
	Strips           []Strip
	// Groups is the list of every SoC (the index page).
	Groups []SoCLink
}

// SoCLink is one SoC of the index.
type SoCLink struct {
	Label, Key string
	N          int
}

// BuildSoCPage returns the page of one reference group, with r (nil for
// none) marked on each figure's strip; r's own placement figures are used
// for its values.
func BuildSoCPage(g reference.Group, r *result.Result) SoCPage {
	p := SoCPage{Label: g.Label, Key: g.Key}
	var cores []string
	for _, e := range g.Entries {
		if e.Usable() {
			p.Results++
		} else {
			p.Left++
		}
		if e.Cores != "" && !strings.Contains(strings.Join(cores, "\n"), e.Cores) {
			cores = append(cores, e.Cores)
		}
	}
	p.Cores = strings.Join(cores, "; ")
	var values map[string]float64
	if r != nil {
		values = reference.FiguresOf(r.Summary)
		p.MarkedID = r.ID
		p.Marked = r.ID
	}
	for _, d := range reference.Distributions(g) {
		var mark *float64
		if v, ok := values[d.Key]; ok {
			mark = &v
			d.Value = mark
			if d.N >= reference.MinForPercentile {
				pc := reference.PercentileOf(d.Values, v)
				d.Percentile = &pc
			}
		}
		p.Strips = append(p.Strips, newStrip(d, mark))
	}
	return p
}

// WriteSoC writes a per-SoC reference page.
func WriteSoC(w io.Writer, p SoCPage) error {
	p.Frame = NewFrame("Reference: "+p.Label, true)
	return templates().ExecuteTemplate(w, "reference", p)
}

// WriteSoCIndex writes the list of the reference set's SoCs.
func WriteSoCIndex(w io.Writer, groups []SoCLink) error {
	return templates().ExecuteTemplate(w, "reference", SoCPage{Frame: NewFrame("Reference set", true), Groups: groups})
}
