package page

import (
	"bytes"
	"context"
	"html/template"

	"boardbench/internal/chart"
	"boardbench/internal/result"
)

// Charts draws r's charts (internal/chart) for inline use in a page: the
// SVG without its XML prologue, so that it sits in HTML as an element.
// It draws at most chart.MaxCharts charts of at most chart.MaxPoints
// points per line, and stops with ctx's error when ctx ends.
func Charts(ctx context.Context, r *result.Result) ([]Chart, int, error) {
	cs, omitted, err := chart.ForResultContext(ctx, r)
	out := make([]Chart, 0, len(cs))
	for _, c := range cs {
		svg := c.SVG
		if i := bytes.Index(svg, []byte("<svg")); i > 0 {
			svg = svg[i:]
		}
		// The SVG is drawn by boardbench (internal/chart), which escapes
		// every text it writes, the board name in its titles among them.
		out = append(out, Chart{Name: c.Name, Title: c.Title, SVG: template.HTML(svg)})
	}
	return out, omitted, err
}
