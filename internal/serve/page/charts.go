package page

import (
	"bytes"
	"html/template"

	"boardbench/internal/chart"
	"boardbench/internal/result"
)

// Charts draws r's charts (internal/chart) for inline use in a page: the
// SVG without its XML prologue, so that it sits in HTML as an element.
func Charts(r *result.Result) ([]Chart, error) {
	cs, err := chart.ForResult(r)
	out := make([]Chart, 0, len(cs))
	for _, c := range cs {
		svg := c.SVG
		if i := bytes.Index(svg, []byte("<svg")); i > 0 {
			svg = svg[i:]
		}
		// The SVG is drawn by boardbench; the board name in its titles is
		// escaped by the SVG encoder.
		out = append(out, Chart{Name: c.Name, Title: c.Title, SVG: template.HTML(svg)})
	}
	return out, err
}
