package chart

import (
	"context"
	"encoding/json"
	"fmt"
	"image/color"
	"math"
	"sort"
	"strconv"
	"strings"

	"boardbench/internal/result"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

func gridLines() plot.Plotter { return plotter.NewGrid() }

// series is one line of a chart.
type series struct {
	label string
	xys   plotter.XYs
}

// linePlot draws the series as lines, one colour each, with their points
// marked when there are at most GlyphPoints. At most MaxSeries series are
// drawn (the legend says how many more there were), each reduced to at
// most MaxPoints points (downsample).
func linePlot(title, x, y string, ss []series) (*plot.Plot, error) {
	p := newPlot(title, x, y)
	drawn := 0
	for i, s := range ss {
		if len(s.xys) == 0 {
			continue
		}
		if drawn == MaxSeries {
			p.Legend.Add(fmt.Sprintf("(%d more lines not drawn)", countWithPoints(ss[i:])))
			break
		}
		drawn++
		xys := downsample(s.xys, MaxPoints)
		l, err := plotter.NewLine(xys)
		if err != nil {
			return nil, err
		}
		l.Color = plotutil.Color(i)
		l.Width = vg.Points(1.5)
		if len(xys) > GlyphPoints {
			p.Add(l)
			p.Legend.Add(s.label, l)
			continue
		}
		pts, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, err
		}
		pts.Color = plotutil.Color(i)
		pts.Shape = plotutil.Shape(i)
		p.Add(l, pts)
		p.Legend.Add(s.label, l, pts)
	}
	// Head room above the highest line for the legend.
	if m := maxY(ss...); m > 0 {
		p.Y.Max = m * 1.25
	}
	return p, nil
}

// countWithPoints counts the series with at least one point.
func countWithPoints(ss []series) int {
	n := 0
	for _, s := range ss {
		if len(s.xys) > 0 {
			n++
		}
	}
	return n
}

// sweepPlots draws MIPS, W and MIPS/W against the clock, one line per
// policy and thread count.
func sweepPlots(_ context.Context, r *result.Result, board string) ([]named, error) {
	if r.Summary.SweepSummary == nil || len(r.Summary.Sweep) == 0 {
		return nil, nil
	}
	type key struct {
		policy  int
		threads int
	}
	var order []key
	group := map[key][]result.SweepRow{}
	for _, row := range r.Summary.Sweep {
		k := key{-1, row.Threads}
		if row.Policy != nil {
			k.policy = *row.Policy
		}
		if _, ok := group[k]; !ok {
			order = append(order, k)
		}
		group[k] = append(group[k], row)
	}
	charts := []struct {
		name, title, y string
		value          func(result.SweepRow) *float64
	}{
		{"sweep-mips", "7-Zip MIPS", "7-Zip total rating (MIPS)", func(r result.SweepRow) *float64 { return r.MIPS }},
		{"sweep-watts", "Power", "power (W)", func(r result.SweepRow) *float64 { return r.PowerW }},
		{"sweep-mips-per-watt", "Efficiency", "efficiency (MIPS/W)", func(r result.SweepRow) *float64 { return r.MIPSPerW }},
	}
	if clock, ok := oneClock(r.Summary.Sweep); ok {
		return oneClockPlots(r.Summary.Sweep, clock, board, charts)
	}
	var out []named
	for _, c := range charts {
		c.title += " against clock"
		var ss []series
		for _, k := range order {
			s := series{label: fmt.Sprintf("%d threads", k.threads)}
			if k.threads == 1 {
				s.label = "1 thread"
			}
			if k.policy >= 0 {
				s.label = fmt.Sprintf("policy%d, %s", k.policy, s.label)
			}
			for _, row := range group[k] {
				x, v := clockOf(row), c.value(row)
				if x == nil || v == nil || !finite(*v) {
					continue
				}
				s.xys = append(s.xys, plotter.XY{X: *x, Y: *v})
			}
			ss = append(ss, s)
		}
		if !hasPoints(ss) {
			continue
		}
		title := c.title + " — " + board
		p, err := linePlot(title, "clock (MHz)", c.y, ss)
		if err != nil {
			return nil, err
		}
		p.Y.Min = 0
		out = append(out, named{c.name, title, p})
	}
	return out, nil
}

// oneClockPlots draws a sweep that ran at one clock only (no cpufreq, or
// one OPP): one point per thread count, as a measured clock that varies
// with noise must not look like several clocks. clock is the requested or
// reported clock, "" when unknown.
func oneClockPlots(rows []result.SweepRow, clock, board string, charts []struct {
	name, title, y string
	value          func(result.SweepRow) *float64
}) ([]named, error) {
	at := "at one clock"
	if clock != "" {
		at += " (" + clock + ")"
	}
	var out []named
	for _, c := range charts {
		s := series{label: "measured " + at}
		for _, row := range rows {
			if v := c.value(row); v != nil && finite(*v) && row.Threads > 0 {
				s.xys = append(s.xys, plotter.XY{X: float64(row.Threads), Y: *v})
			}
		}
		if len(s.xys) == 0 {
			continue
		}
		sort.Slice(s.xys, func(i, j int) bool { return s.xys[i].X < s.xys[j].X })
		title := c.title + " by thread count, " + at + " — " + board
		p, err := linePlot(title, "threads", c.y, []series{s})
		if err != nil {
			return nil, err
		}
		p.Y.Min = 0
		p.X.Min, p.X.Max = s.xys[0].X-0.5, s.xys[len(s.xys)-1].X+0.5
		p.X.Tick.Marker = threadTicks{}
		out = append(out, named{c.name, title, p})
	}
	return out, nil
}

// threadTicks labels whole thread counts only.
type threadTicks struct{}

// Ticks implements plot.Ticker.
func (threadTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	step := max(1, math.Ceil((hi-lo)/maxLabels))
	for v := max(1, math.Ceil(lo)); v <= hi; v += step {
		ts = append(ts, plot.Tick{Value: v, Label: strconv.Itoa(int(v))})
	}
	return ts
}

// oneClock reports whether the sweep ran at a single clock: no row names
// a requested clock (no cpufreq) or all name the same one. clock is that
// clock, or the reported one, as text; "" when neither is known.
func oneClock(rows []result.SweepRow) (clock string, ok bool) {
	req, rep := map[float64]bool{}, map[float64]bool{}
	for _, row := range rows {
		if row.RequestedMHz != nil {
			req[math.Round(*row.RequestedMHz)] = true
		}
		if row.ReportedMHz != nil {
			rep[math.Round(*row.ReportedMHz)] = true
		}
	}
	if len(req) > 1 {
		return "", false
	}
	for _, m := range []map[float64]bool{req, rep} {
		if len(m) == 1 {
			for v := range m {
				return fmt.Sprintf("%.0f MHz", v), true
			}
		}
	}
	return "", true
}

// clockOf is the clock a sweep row is drawn at: the one requested, else
// the one reported, else the one measured.
func clockOf(r result.SweepRow) *float64 {
	for _, v := range []*float64{r.RequestedMHz, r.ReportedMHz, r.MeasuredMHz} {
		if v != nil {
			return v
		}
	}
	return nil
}

func hasPoints(ss []series) bool {
	for _, s := range ss {
		if len(s.xys) > 0 {
			return true
		}
	}
	return false
}

// monitorPlots draws temperature and clock per cluster over the time of the
// whole result, from every phase's monitor samples; the power over time when
// a power source was read.
func monitorPlots(ctx context.Context, r *result.Result, board string) ([]named, error) {
	check := ctxCheck(ctx)
	temp := series{label: "SoC temperature"}
	if r.Monitor.TempLabel != "" {
		temp.label = r.Monitor.TempLabel
	}
	power := series{label: "power"}
	clocks := map[int]*series{}
	var order []int
	for _, ph := range r.Phases {
		for _, s := range ph.Samples {
			if err := check(); err != nil {
				return nil, err
			}
			t := s.Time.Sub(r.StartedAt).Seconds()
			if s.TempC != nil && finite(*s.TempC) {
				temp.xys = append(temp.xys, plotter.XY{X: t, Y: *s.TempC})
			}
			if s.PowerW != nil && finite(*s.PowerW) {
				power.xys = append(power.xys, plotter.XY{X: t, Y: *s.PowerW})
			}
			for i, c := range s.ClockMHz {
				if c == nil || !finite(*c) {
					continue
				}
				if clocks[i] == nil {
					clocks[i] = &series{label: policyLabel(r, i)}
					order = append(order, i)
				}
				clocks[i].xys = append(clocks[i].xys, plotter.XY{X: t, Y: *c})
			}
		}
	}
	var out []named
	add := func(name, title, y string, ss []series) error {
		if !hasPoints(ss) {
			return nil
		}
		title += " — " + board
		p, err := linePlot(title, "time since start (s)", y, ss)
		if err != nil {
			return err
		}
		out = append(out, named{name, title, p})
		return nil
	}
	if err := add("temperature", "Temperature over time", "temperature (°C)", []series{temp}); err != nil {
		return nil, err
	}
	var cs []series
	for _, i := range order {
		cs = append(cs, *clocks[i])
	}
	if err := add("clock", "Clock over time", "clock (MHz)", cs); err != nil {
		return nil, err
	}
	if err := add("power", "Power over time", "power (W)", []series{power}); err != nil {
		return nil, err
	}
	return out, nil
}

func policyLabel(r *result.Result, i int) string {
	if i < len(r.Monitor.Policies) {
		p := r.Monitor.Policies[i]
		return fmt.Sprintf("policy%d", p.ID)
	}
	return fmt.Sprintf("cluster %d", i)
}

// latencyPlots draws each memory phase's latency against block size, with
// the cache levels found marked by vertical lines.
func latencyPlots(ctx context.Context, r *result.Result, board string) ([]named, error) {
	var out []named
	n := 0
	for _, ph := range r.Phases {
		if ph.Name != result.PhaseMemory || len(ph.Figures) == 0 {
			continue
		}
		if err := stopped(ctx); err != nil {
			return nil, err
		}
		var f result.MemFigures
		if json.Unmarshal(ph.Figures, &f) != nil || len(f.Latency) == 0 {
			continue
		}
		s := series{label: "random read latency"}
		sh := series{label: "random read latency, huge pages"}
		for _, row := range f.Latency {
			if row.SizeBytes <= 0 {
				continue
			}
			kib := float64(row.SizeBytes) / 1024
			if row.NS != nil && *row.NS > 0 {
				s.xys = append(s.xys, plotter.XY{X: kib, Y: *row.NS})
			}
			if row.NSHugePage != nil && *row.NSHugePage > 0 {
				sh.xys = append(sh.xys, plotter.XY{X: kib, Y: *row.NSHugePage})
			}
		}
		if !hasPoints([]series{s, sh}) {
			continue
		}
		where, name := latencyPlace(f, n)
		title := fmt.Sprintf("Memory latency on %s — %s", where, board)
		p, err := linePlot(title, "block size (KiB, log scale)", "latency (ns)", []series{s, sh})
		if err != nil {
			return nil, err
		}
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		for i, lvl := range f.CacheLevels {
			if lvl.DetectedBytes <= 0 {
				continue
			}
			x := float64(lvl.DetectedBytes) / 1024
			label := fmt.Sprintf("cache level %d", i+1)
			if lvl.SysfsLevel != nil {
				label = fmt.Sprintf("L%d", *lvl.SysfsLevel)
			}
			label += fmt.Sprintf(" (%s, %.1f ns)", sizeText(lvl.DetectedBytes), lvl.LatencyNS)
			line, err := plotter.NewLine(plotter.XYs{{X: x, Y: 0}, {X: x, Y: maxY(s, sh)}})
			if err != nil {
				return nil, err
			}
			line.Color = color.Gray{Y: 120}
			line.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
			line.Width = vg.Points(1)
			p.Add(line)
			lbl, err := plotter.NewLabels(plotter.XYLabels{XYs: []plotter.XY{{X: x, Y: maxY(s, sh) * (0.95 - 0.07*float64(i))}}, Labels: []string{label}})
			if err != nil {
				return nil, err
			}
			p.Add(lbl)
		}
		p.Y.Min = 0
		n++
		out = append(out, named{name, title, p})
	}
	return out, nil
}

// latencyPlace names where the n-th latency curve was measured, for its
// title ("cpu4 (Cortex-A76)", "the little core (CPU number unknown)",
// "an unknown CPU") and its file name ("memory-latency-cpu4",
// "memory-latency-little-core", "memory-latency-2").
func latencyPlace(f result.MemFigures, n int) (where, name string) {
	core := strings.TrimSpace(f.Core)
	switch {
	case f.CPU >= 0 && core != "":
		return fmt.Sprintf("cpu%d (%s)", f.CPU, core), fmt.Sprintf("memory-latency-cpu%d", f.CPU)
	case f.CPU >= 0:
		return fmt.Sprintf("cpu%d", f.CPU), fmt.Sprintf("memory-latency-cpu%d", f.CPU)
	case core != "":
		return fmt.Sprintf("the %s (CPU number unknown)", core), "memory-latency-" + slug(core)
	}
	return "an unknown CPU", fmt.Sprintf("memory-latency-%d", n+1)
}

// slug makes s a file-name part: lower case letters and digits joined by
// dashes.
func slug(s string) string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9')
	})
	if len(f) == 0 {
		return "unknown"
	}
	return strings.Join(f, "-")
}

func maxY(ss ...series) float64 {
	m := 0.0
	for _, s := range ss {
		for _, xy := range s.xys {
			m = max(m, xy.Y)
		}
	}
	return m
}

func sizeText(b int64) string {
	switch {
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", b>>20)
	case b >= 1<<10:
		return fmt.Sprintf("%d KiB", b>>10)
	}
	return fmt.Sprintf("%d B", b)
}
