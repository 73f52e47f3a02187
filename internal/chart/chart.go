// Package chart draws the charts of a result as SVG, with its own small
// SVG writer (no fonts embedded: text is SVG text in the pages' sans-serif
// font stack): MIPS, watts and MIPS per watt against the clock for a
// sweep; temperature, clock (reported and measured, throttled stretches
// shaded) and power over time from the monitor's samples of any result
// and from an imported log's monitor lines; the memory latency curve on
// log axes with the cache levels found and those the kernel reports; the
// storage table as grouped bars and the sustained writes; the result's
// headline figures among the reference results of its SoC; and, for
// several results, their headline figures side by side (Compare). Every
// chart has axes with units, a legend under the plot and a title naming
// the board. `boardbench report --charts DIR` writes them, and the web
// view serves them.
package chart

import (
	"context"
	"fmt"
	"math"
	"strings"

	"boardbench/internal/result"
)

// Chart is one drawn chart: Name is a file-name stem ("sweep-mips"), Title
// the chart's title, SVG the drawing.
type Chart struct {
	Name  string
	Title string
	SVG   []byte
}

// named is a chart before encoding.
type named struct {
	name  string
	title string
	fig   *figure
}

// ForResult draws every chart the result has data for; none (and no error)
// for a result without such data. It is ForResultContext without a
// deadline, leaving out the charts beyond MaxCharts.
func ForResult(r *result.Result) ([]Chart, error) {
	cs, _, err := ForResultContext(context.Background(), r)
	return cs, err
}

// ForResultContext draws every chart the result has data for, at most
// MaxCharts (omitted says how many more there were), each series at most
// MaxPoints points. It stops with ctx's error (wrapped) when ctx ends.
func ForResultContext(ctx context.Context, r *result.Result) (charts []Chart, omitted int, err error) {
	ps, err := plotsContext(ctx, r)
	if err != nil {
		return nil, 0, err
	}
	if len(ps) > MaxCharts {
		omitted = len(ps) - MaxCharts
		ps = ps[:MaxCharts]
	}
	out := make([]Chart, 0, len(ps))
	for _, p := range ps {
		if err := stopped(ctx); err != nil {
			return nil, 0, err
		}
		out = append(out, Chart{Name: p.name, Title: p.title, SVG: p.svg()})
	}
	return out, omitted, nil
}

// plots builds the charts of r.
func plots(r *result.Result) ([]named, error) { return plotsContext(context.Background(), r) }

// plotsContext builds the charts of r, stopping when ctx ends.
func plotsContext(ctx context.Context, r *result.Result) ([]named, error) {
	if r == nil {
		return nil, nil
	}
	board := Board(r)
	var out []named
	for _, build := range []func(context.Context, *result.Result, string) ([]named, error){sweepPlots, monitorPlots, importedPlots, latencyPlots, storagePlots, sustainedPlots, referencePlots} {
		if err := stopped(ctx); err != nil {
			return nil, err
		}
		ps, err := build(ctx, r, board)
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
	}
	// One file per chart: a name already taken gets a number.
	seen := map[string]int{}
	for i := range out {
		base := out[i].name
		for seen[out[i].name] > 0 {
			seen[base]++
			out[i].name = fmt.Sprintf("%s-%d", base, seen[base])
		}
		seen[out[i].name]++
	}
	return out, nil
}

// svg writes the chart; its name and title are the chart's.
func (n named) svg() []byte {
	n.fig.name, n.fig.title = n.name, n.title
	return n.fig.svg()
}

// Board names the machine of a result for chart titles: the board model
// and SoC, else the processor.
func Board(r *result.Result) string {
	if r.Info == nil {
		return "unknown machine"
	}
	model, soc := strings.TrimSpace(r.Info.Board.Model), strings.TrimSpace(r.Info.SoC.Guess)
	switch {
	case model != "" && soc != "" && !strings.Contains(model, soc):
		return model + " (" + soc + ")"
	case model != "":
		return model
	case soc != "":
		return soc
	}
	if len(r.Info.CPU.Clusters) > 0 && r.Info.CPU.Clusters[0].CoreName != "" {
		return r.Info.CPU.Clusters[0].CoreName
	}
	return "unknown machine"
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// NoneReason says why ForResult drew no chart for r, in words for a
// "no charts: ..." line.
func NoneReason(r *result.Result) string {
	if r == nil {
		return "there is no result"
	}
	samples := 0
	for _, ph := range r.Phases {
		samples += len(ph.Samples)
	}
	if samples > 0 {
		return "its monitor samples carry no clock, temperature or power, and it has no sweep or memory latency curve"
	}
	return "it has no sweep, no monitor samples, no imported monitor lines and no memory latency curve"
}
