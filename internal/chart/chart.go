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
	"context"
	"fmt"
	"image/color"
	"math"
	"strings"

	"boardbench/internal/result"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
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
		data, err := encode(p.plot, "svg")
		if err != nil {
			return nil, 0, fmt.Errorf("chart %s: %v", p.name, err)
		}
		out = append(out, Chart{Name: p.name, Title: p.title, SVG: data})
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
	for _, build := range []func(context.Context, *result.Result, string) ([]named, error){sweepPlots, monitorPlots, importedPlots, latencyPlots, sustainedPlots} {
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

// Margin is the blank border around every chart, so that the title and
// the tick labels are never clipped at the edge.
const Margin = vg.Length(12) // points

// encode writes p in format ("svg", "png") with a Margin all round.
func encode(p *plot.Plot, format string) ([]byte, error) {
	var b bytes.Buffer
	switch format {
	case "svg":
		c := vgsvg.New(Width, Height)
		p.Draw(draw.Crop(draw.New(c), Margin, -Margin, Margin, -Margin))
		if _, err := c.WriteTo(&b); err != nil {
			return nil, err
		}
	case "png":
		c := vgimg.New(Width, Height)
		dc := draw.New(c)
		dc.SetColor(color.White)
		dc.Fill(dc.Rectangle.Path())
		p.Draw(draw.Crop(dc, Margin, -Margin, Margin, -Margin))
		if _, err := (vgimg.PngCanvas{Canvas: c}).WriteTo(&b); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unknown chart format %q", format)
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
	p.Title.Padding = vg.Points(8)
	p.Legend.Top = true
	// Inside the frame, clear of its right and top edges.
	p.Legend.XOffs, p.Legend.YOffs = -vg.Points(8), -vg.Points(4)
	p.Legend.Padding = vg.Points(2)
	p.X.Tick.Marker, p.Y.Tick.Marker = niceTicks{}, niceTicks{}
	p.Add(gridLines())
	return p
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
