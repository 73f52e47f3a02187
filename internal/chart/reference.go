package chart

import (
	"context"
	"fmt"
	"math"

	"boardbench/internal/reference"
	"boardbench/internal/result"
)

// RefMinSpan is the narrowest range a reference distribution is drawn
// over, as a share of the result's value.
const RefMinSpan = 0.1

// referencePlots places the result's headline figures among the
// reference results of its SoC (internal/reference, the set shipped with
// boardbench) and draws each placed figure's distribution.
func referencePlots(ctx context.Context, r *result.Result, board string) ([]named, error) {
	if !reference.Applies(r) {
		return nil, nil
	}
	if err := stopped(ctx); err != nil {
		return nil, err
	}
	set, err := reference.Embedded()
	if err != nil {
		return nil, err
	}
	return referenceFigures(set.Place(r), board), nil
}

// Reference draws the distribution of each headline figure of a placement
// (reference.Set.Place) that has a value and reference results: a
// histogram of the reference results with the result's own value and the
// median marked. board names the machine in the titles.
func Reference(p reference.Placement, board string) []Chart {
	var out []Chart
	for _, n := range referenceFigures(p, board) {
		out = append(out, Chart{Name: n.name, Title: n.title, SVG: n.svg()})
	}
	return out
}

func referenceFigures(p reference.Placement, board string) []named {
	if p.NotPlaced != "" {
		return nil
	}
	var out []named
	for _, fp := range p.Figures {
		if fp.Value == nil || !finite(*fp.Value) || len(fp.Values) == 0 {
			continue
		}
		v := *fp.Value
		lo, hi := v, v
		for _, x := range fp.Values {
			lo, hi = math.Min(lo, x), math.Max(hi, x)
		}
		// At least a tenth of the value wide: results a few parts in a
		// thousand apart (2398 and 2399 MHz) fall in one bin, not in
		// bins of 0.1 MHz that make them look far apart.
		if minSpan := RefMinSpan * math.Abs(v); hi-lo < minSpan {
			mid := (lo + hi) / 2
			lo, hi = mid-minSpan/2, mid+minSpan/2
		}
		if hi == lo {
			lo, hi = lo-1, hi+1
		}
		step := binStep(lo, hi, 12)
		start := math.Floor(lo/step) * step
		nb := int(math.Floor((hi-start)/step)) + 1
		counts := make([]float64, nb)
		for _, x := range fp.Values {
			counts[min(nb-1, max(0, int(math.Floor((x-start)/step))))]++
		}
		fig := &figure{x: axis{label: fp.Label + " (" + fp.Unit + ")"}, y: axis{label: "reference results", integer: true, zero: true}}
		for i, c := range counts {
			fig.hist = append(fig.hist, bin{X0: start + float64(i)*step, X1: start + float64(i+1)*step, N: c})
		}
		label := fmt.Sprintf("this result: %s %s", trimNum(v), fp.Unit)
		if fp.Percentile != nil {
			label += fmt.Sprintf(" (percentile %.0f)", *fp.Percentile)
		}
		fig.marks = append(fig.marks, mark{X: v, label: label, kind: markValue})
		if fp.Median != nil {
			fig.marks = append(fig.marks, mark{X: *fp.Median, label: "median " + trimNum(*fp.Median), kind: markStat})
		}
		fig.markLegend = []legendItem{{label: "this result", kind: "mark-value"}, {label: "median of the reference results", kind: "mark-stat"}}
		group := p.Group
		if group == "" {
			group = p.SoC
		}
		fig.notes = append(fig.notes, fmt.Sprintf("%d reference results: %s", fp.N, fp.Population))
		if p.Basis == reference.BasisCores {
			fig.notes = append(fig.notes, "no results of the SoC: results with the same cores")
		}
		title := fmt.Sprintf("%s among the reference results of %s — %s", fp.Label, group, board)
		out = append(out, named{"reference-" + slug(fp.Key), title, fig})
	}
	return out
}

// binStep is the finest 1, 2 or 5 times a power of ten that cuts [lo, hi]
// into at most n bins.
func binStep(lo, hi float64, n int) float64 {
	exp := math.Floor(math.Log10((hi - lo) / float64(n)))
	for ; ; exp++ {
		for _, m := range []float64{1, 2, 5} {
			step := m * math.Pow(10, exp)
			if math.Floor(hi/step)-math.Floor(lo/step)+1 <= float64(n) {
				return step
			}
		}
	}
}
