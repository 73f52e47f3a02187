// Package chart draws the charts of a result as SVG with gonum's plot
// package: MIPS, watts and MIPS per watt against the clock for a sweep;
// temperature and clock over time from the monitor's samples of any result
// (a thermal test's heating and cooling among them); and the memory latency
// curve with the cache levels marked. Every chart has axes with units, a
// legend and a title naming the board. `boardbench report --charts DIR`
// writes them, and the web view serves them.
package chart

import (
	"bytes"
	"fmt"
	"math"
	"strings"

	"boardbench/internal/result"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
)

// Chart is one drawn chart: Name is a file-name stem ("sweep-mips"), Title
// the chart's title, SVG the drawing.
type Chart struct {
	Name  string
	Title string
	SVG   []byte
}

// Size of every chart.
const (
	Width  = 8 * vg.Inch
	Height = 4.5 * vg.Inch
)

// named is a chart before encoding.
type named struct {
	name  string
	title string
	plot  *plot.Plot
}

// ForResult draws every chart the result has data for; none (and no error)
// for a result without such data.
func ForResult(r *result.Result) ([]Chart, error) {
	ps, err := plots(r)
	if err != nil {
		return nil, err
	}
	out := make([]Chart, 0, len(ps))
	for _, p := range ps {
		data, err := encode(p.plot, "svg")
		if err != nil {
			return nil, fmt.Errorf("chart %s: %v", p.name, err)
		}
		out = append(out, Chart{Name: p.name, Title: p.title, SVG: data})
	}
	return out, nil
}

// plots builds the charts of r.
func plots(r *result.Result) ([]named, error) {
	if r == nil {
		return nil, nil
	}
	board := Board(r)
	var out []named
	for _, build := range []func(*result.Result, string) ([]named, error){sweepPlots, monitorPlots, latencyPlots} {
		ps, err := build(r, board)
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
	}
	return out, nil
}

// encode writes p in format ("svg", "png").
func encode(p *plot.Plot, format string) ([]byte, error) {
	wt, err := p.WriterTo(Width, Height, format)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if _, err := wt.WriteTo(&b); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
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

// newPlot makes a plot with a title and axis labels.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	p.Legend.Top = true
	p.Add(gridLines())
	return p
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
