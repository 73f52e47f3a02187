package chart

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"boardbench/internal/result"
)

// lineFigure makes a figure of lines: at most MaxSeries of them (the
// legend says how many more there were), each reduced to at most
// MaxPoints points. Lines without points are left out.
func lineFigure(xLabel, yLabel string, ls []line) *figure {
	f := &figure{x: axis{label: xLabel}, y: axis{label: yLabel}}
	drawn, more := 0, 0
	for _, l := range ls {
		if l.points() == 0 {
			continue
		}
		if drawn == MaxSeries {
			more++
			continue
		}
		drawn++
		l.segments = bounded(l.segments)
		f.lines = append(f.lines, l)
	}
	if more > 0 {
		f.legendNote = fmt.Sprintf("(%d more lines not drawn)", more)
	}
	return f
}

func hasLines(ls []line) bool {
	for _, l := range ls {
		if l.points() > 0 {
			return true
		}
	}
	return false
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
	charts := sweepCharts()
	if clock, ok := oneClock(r.Summary.Sweep); ok {
		return oneClockPlots(r.Summary.Sweep, clock, board, charts), nil
	}
	var out []named
	for _, c := range charts {
		var ls []line
		for _, k := range order {
			l := line{label: fmt.Sprintf("%d threads", k.threads)}
			if k.threads == 1 {
				l.label = "1 thread"
			}
			if k.policy >= 0 {
				l.label = fmt.Sprintf("policy%d, %s", k.policy, l.label)
			}
			var ps []pt
			for _, row := range group[k] {
				x, v := clockOf(row), c.value(row)
				if x == nil || v == nil || !finite(*x) || !finite(*v) {
					continue
				}
				ps = append(ps, pt{X: *x, Y: *v})
			}
			sort.SliceStable(ps, func(i, j int) bool { return ps[i].X < ps[j].X })
			if len(ps) > 0 {
				l.segments = [][]pt{ps}
			}
			ls = append(ls, l)
		}
		if !hasLines(ls) {
			continue
		}
		title := c.title + " against clock — " + board
		f := lineFigure("clock (MHz)", c.y, ls)
		f.y.zero = true
		out = append(out, named{c.name, title, f})
	}
	return out, nil
}

type sweepChart struct {
	name, title, y string
	value          func(result.SweepRow) *float64
}

func sweepCharts() []sweepChart {
	return []sweepChart{
		{"sweep-mips", "7-Zip MIPS", "7-Zip total rating (MIPS)", func(r result.SweepRow) *float64 { return r.MIPS }},
		{"sweep-watts", "Power", "power (W)", func(r result.SweepRow) *float64 { return r.PowerW }},
		{"sweep-mips-per-watt", "Efficiency (MIPS/W)", "efficiency (MIPS/W)", func(r result.SweepRow) *float64 { return r.MIPSPerW }},
	}
}

// oneClockPlots draws a sweep that ran at one clock only (no cpufreq, or
// one OPP): one point per thread count, as a measured clock that varies
// with noise must not look like several clocks. clock is the requested or
// reported clock, "" when unknown.
func oneClockPlots(rows []result.SweepRow, clock, board string, charts []sweepChart) []named {
	at := "at one clock"
	if clock != "" {
		at += " (" + clock + ")"
	}
	var out []named
	for _, c := range charts {
		var ps []pt
		for _, row := range rows {
			if v := c.value(row); v != nil && finite(*v) && row.Threads > 0 {
				ps = append(ps, pt{X: float64(row.Threads), Y: *v})
			}
		}
		if len(ps) == 0 {
			continue
		}
		sort.SliceStable(ps, func(i, j int) bool { return ps[i].X < ps[j].X })
		title := c.title + " by thread count, " + at + " — " + board
		f := lineFigure("threads", c.y, []line{{label: "measured " + at, segments: [][]pt{ps}}})
		f.y.zero = true
		f.x.integer = true
		out = append(out, named{c.name, title, f})
	}
	return out
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

// Throttling as the clock chart shades it: a cluster's clock more than
// ThrottleDropPct below the top of its cpufreq table while one of its CPUs
// is at least BusyPct busy (under load a governor runs at the top), or
// the firmware's clock more than ThrottleDropPct below the one cpufreq
// reports (the firmware caps without telling the kernel).
const (
	ThrottleDropPct = 5.0
	BusyPct         = 90.0
)

// monitorPlots draws temperature, clock per cluster and power over the
// time of the whole result from every phase's monitor samples; the clock
// chart adds the firmware's clock, the clocks the clock phases measured
// and shades the throttled stretches.
func monitorPlots(ctx context.Context, r *result.Result, board string) ([]named, error) {
	check := ctxCheck(ctx)
	tempLabel := "SoC temperature"
	if r.Monitor.TempLabel != "" {
		tempLabel = r.Monitor.TempLabel
	}
	type timed struct {
		s     result.Sample
		block int
	}
	var samples []timed
	for i, ph := range r.Phases {
		for _, s := range ph.Samples {
			if err := check(); err != nil {
				return nil, err
			}
			samples = append(samples, timed{s, i})
		}
	}
	sort.SliceStable(samples, func(i, j int) bool { return samples[i].s.Time.Before(samples[j].s.Time) })
	at := func(t time.Time) float64 { return t.Sub(r.StartedAt).Seconds() }
	var temp, power, firmware []tpoint
	clocks := map[int][]tpoint{}
	var order []int
	for _, ts := range samples {
		s, t := ts.s, at(ts.s.Time)
		if s.TempC != nil && finite(*s.TempC) {
			temp = append(temp, tpoint{t, *s.TempC, ts.block})
		}
		if s.PowerW != nil && finite(*s.PowerW) {
			power = append(power, tpoint{t, *s.PowerW, ts.block})
		}
		if s.FirmwareMHz != nil && finite(*s.FirmwareMHz) && *s.FirmwareMHz > 0 {
			firmware = append(firmware, tpoint{t, *s.FirmwareMHz, ts.block})
		}
		for i, c := range s.ClockMHz {
			if c == nil || !finite(*c) || *c <= 0 {
				continue
			}
			if _, ok := clocks[i]; !ok {
				order = append(order, i)
			}
			clocks[i] = append(clocks[i], tpoint{t, *c, ts.block})
		}
	}
	sort.Ints(order)
	var out []named
	add := func(name, title, y string, ls []line) *figure {
		if !hasLines(ls) {
			return nil
		}
		title += " — " + board
		f := lineFigure("time since start (s)", y, ls)
		out = append(out, named{name, title, f})
		return f
	}
	add("temperature", "Temperature over time", "temperature (°C)", []line{{label: tempLabel, segments: timeSegments(temp, 0)}})
	var cs []line
	for _, i := range order {
		cs = append(cs, line{label: policyLabel(r, i) + ", reported by cpufreq", segments: timeSegments(clocks[i], 0)})
	}
	if len(firmware) > 0 {
		cs = append(cs, line{label: "firmware clock", segments: timeSegments(firmware, 0), dashed: true})
	}
	cs = append(cs, measuredClocks(r)...)
	if f := add("clock", "Clock over time", "clock (MHz)", cs); f != nil {
		plain := make([]result.Sample, len(samples))
		times := make([]float64, len(samples))
		for i, ts := range samples {
			plain[i], times[i] = ts.s, at(ts.s.Time)
		}
		f.spans = runs(times, throttled(r, plain))
		f.spanLabel = fmt.Sprintf("throttled: clock over %.0f%% below its top under load, or firmware below cpufreq", ThrottleDropPct)
	}
	add("power", "Power over time", "power (W)", []line{{label: "power", segments: timeSegments(power, 0)}})
	return out, nil
}

// measuredClocks are the clocks the clock phases measured, one point per
// cluster at the middle of its phase.
func measuredClocks(r *result.Result) []line {
	byLabel := map[string]*line{}
	var order []string
	for _, ph := range r.Phases {
		if (ph.Name != result.PhaseClock && ph.Name != result.PhaseClockAfterLoad) || len(ph.Figures) == 0 || ph.StartedAt.IsZero() {
			continue
		}
		var f result.ClockFigures
		if json.Unmarshal(ph.Figures, &f) != nil {
			continue
		}
		t := ph.StartedAt.Sub(r.StartedAt).Seconds() + ph.DurationS/2
		for _, c := range f.Clusters {
			if c.MeasuredMHz == nil || !finite(*c.MeasuredMHz) {
				continue
			}
			label := "measured"
			switch {
			case c.Policy != nil:
				label = fmt.Sprintf("policy%d, measured", *c.Policy)
			case c.CPU != nil:
				label = fmt.Sprintf("cpu%d, measured", *c.CPU)
			}
			if byLabel[label] == nil {
				byLabel[label] = &line{label: label, markersOnly: true}
				order = append(order, label)
			}
			byLabel[label].segments = append(byLabel[label].segments, []pt{{X: t, Y: *c.MeasuredMHz}})
		}
	}
	out := make([]line, 0, len(order))
	for _, l := range order {
		out = append(out, *byLabel[l])
	}
	return out
}

// throttled flags each sample (in the given order) that shows throttling
// (see ThrottleDropPct).
func throttled(r *result.Result, samples []result.Sample) []bool {
	tops := map[int]float64{}
	for _, ph := range r.Phases {
		for _, tis := range ph.TimeInState {
			tops[tis.Policy] = max(tops[tis.Policy], tis.TopMHz)
		}
	}
	sampledTop := map[int]float64{}
	for _, s := range samples {
		for i, c := range s.ClockMHz {
			if c != nil && finite(*c) {
				sampledTop[i] = max(sampledTop[i], *c)
			}
		}
	}
	top := func(i int) float64 {
		if i < len(r.Monitor.Policies) {
			if t := tops[r.Monitor.Policies[i].ID]; t > 0 {
				return t
			}
		}
		return sampledTop[i]
	}
	busy := func(s result.Sample, i int) bool {
		if i < len(r.Monitor.Policies) && len(s.PerCPUBusyPct) > 0 {
			for _, c := range r.Monitor.Policies[i].CPUs {
				if s.PerCPUBusyPct[c] >= BusyPct {
					return true
				}
			}
			return false
		}
		return s.CPUPct != nil && *s.CPUPct >= BusyPct
	}
	drop := 1 - ThrottleDropPct/100
	flags := make([]bool, len(samples))
	for k, s := range samples {
		reported := 0.0
		for i, c := range s.ClockMHz {
			if c == nil || !finite(*c) || *c <= 0 {
				continue
			}
			reported = max(reported, *c)
			if t := top(i); t > 0 && *c < t*drop && busy(s, i) {
				flags[k] = true
			}
		}
		if s.FirmwareMHz != nil && reported > 0 && *s.FirmwareMHz > 0 && *s.FirmwareMHz < reported*drop {
			flags[k] = true
		}
	}
	return flags
}

func policyLabel(r *result.Result, i int) string {
	if i < len(r.Monitor.Policies) {
		p := r.Monitor.Policies[i]
		return fmt.Sprintf("policy%d", p.ID)
	}
	return fmt.Sprintf("cluster %d", i)
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

func sizeText(b int64) string {
	switch {
	case b >= 1<<20 && b%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", b>>20)
	case b >= 1<<10:
		return fmt.Sprintf("%d KiB", b>>10)
	}
	return fmt.Sprintf("%d B", b)
}
