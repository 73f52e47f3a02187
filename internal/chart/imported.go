package chart

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"boardbench/internal/result"
)

// importedPlots draws the temperature and the clocks over time from the
// monitor lines of an imported log (result.ImportedFigures.Monitoring),
// sorted by time: the time is the seconds since the earliest monitor line,
// a line repeated at the same time is drawn once, and a pause longer than
// GapFactor sampling intervals (between two blocks of lines) breaks the
// line. The clock chart shades the stretches the log shows throttled: a
// clock more than ThrottleDropPct below the log's highest for that column
// while %cpu is at least BusyPct, or the firmware's clock ("real") that
// far below cpufreq's ("fake").
func importedPlots(ctx context.Context, r *result.Result, board string) ([]named, error) {
	check := ctxCheck(ctx)
	f := result.ImportedOf(r)
	if f == nil || len(f.Monitoring) == 0 {
		return nil, nil
	}
	type row struct {
		t      float64
		block  int
		temp   *float64
		clocks []float64 // 0: not in the line
		cpu    *float64
	}
	var rows []row
	var names func(int) string
	fakeReal := false
	last, day := -1.0, 0.0
	for bi, m := range f.Monitoring {
		if names == nil {
			names = clockNames(m.Columns)
			fakeReal = len(m.Columns) > 1 && m.Columns[1] == "fake/real"
		}
		cpuCol := -1
		for i, c := range m.Columns {
			if c == "%cpu" {
				cpuCol = i
			}
		}
		for _, fields := range m.Rows {
			if err := check(); err != nil {
				return nil, err
			}
			if len(fields) == 0 {
				continue
			}
			t, ok := clockTime(fields[0])
			if !ok {
				continue
			}
			t += day
			if last >= 0 && t < last-12*3600 {
				// Past midnight.
				day += 86400
				t += 86400
			}
			last = t
			rw := row{t: t, block: bi}
			for i, field := range fields[1:] {
				switch {
				case strings.HasSuffix(field, "°C"):
					if v, err := strconv.ParseFloat(strings.TrimSuffix(field, "°C"), 64); err == nil && finite(v) {
						rw.temp = &v
					}
				case strings.HasSuffix(field, "MHz"):
					for _, part := range strings.Split(strings.TrimSuffix(field, "MHz"), "/") {
						v, err := strconv.ParseFloat(part, 64)
						if err != nil || !finite(v) || v <= 0 {
							v = 0
						}
						rw.clocks = append(rw.clocks, v)
					}
				case i+1 == cpuCol && strings.HasSuffix(field, "%"):
					if v, err := strconv.ParseFloat(strings.TrimSuffix(field, "%"), 64); err == nil && finite(v) {
						rw.cpu = &v
					}
				}
			}
			rows = append(rows, rw)
		}
	}
	if len(rows) == 0 {
		return nil, nil
	}
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].t < rows[j].t })
	origin := rows[0].t
	var temp []tpoint
	var clocks [][]tpoint
	for _, rw := range rows {
		if rw.temp != nil {
			temp = append(temp, tpoint{rw.t, *rw.temp, rw.block})
		}
		for i, v := range rw.clocks {
			for len(clocks) <= i {
				clocks = append(clocks, nil)
			}
			if v > 0 {
				clocks[i] = append(clocks[i], tpoint{rw.t, v, rw.block})
			}
		}
	}
	var cl []line
	for i, c := range clocks {
		// The firmware's clock dashed, so that cpufreq's shows where the
		// two agree.
		cl = append(cl, line{label: names(i), segments: timeSegments(c, origin), dashed: fakeReal && i == 1})
	}
	// Throttled lines, once per time.
	tops := make([]float64, len(clocks))
	for _, rw := range rows {
		for i, v := range rw.clocks {
			tops[i] = max(tops[i], v)
		}
	}
	drop := 1 - ThrottleDropPct/100
	var times []float64
	var flags []bool
	for k, rw := range rows {
		if k > 0 && rw.t == rows[k-1].t {
			continue
		}
		hit := false
		for i, v := range rw.clocks {
			if v > 0 && v < tops[i]*drop && rw.cpu != nil && *rw.cpu >= BusyPct {
				hit = true
			}
		}
		if fakeReal && len(rw.clocks) >= 2 && rw.clocks[0] > 0 && rw.clocks[1] > 0 && rw.clocks[1] < rw.clocks[0]*drop {
			hit = true
		}
		times = append(times, rw.t-origin)
		flags = append(flags, hit)
	}
	var out []named
	xLabel := "time since the log's first monitor line (s)"
	if lines := []line{{label: "temperature (from the log)", segments: timeSegments(temp, origin)}}; hasLines(lines) {
		title := "Temperature over time (imported log) — " + board
		out = append(out, named{"imported-temperature", title, lineFigure(xLabel, "temperature (°C)", lines)})
	}
	if hasLines(cl) {
		title := "Clock over time (imported log) — " + board
		fig := lineFigure(xLabel, "clock (MHz)", cl)
		fig.spans = runs(times, flags)
		fig.spanLabel = fmt.Sprintf("throttled: clock over %.0f%% below its top at %%cpu ≥ %.0f, or firmware below cpufreq", ThrottleDropPct, BusyPct)
		out = append(out, named{"imported-clock", title, fig})
	}
	return out, nil
}

// clockTime reads a monitor line's time ("16:03:06:") as seconds of the day.
func clockTime(s string) (float64, bool) {
	parts := strings.Split(strings.TrimSuffix(s, ":"), ":")
	if len(parts) != 3 {
		return 0, false
	}
	t := 0.0
	for _, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 || v > 59 {
			return 0, false
		}
		t = t*60 + float64(v)
	}
	return t, true
}

// clockNames returns the label of the i-th value of the clock column, from
// the column's header: "big.LITTLE" (big cores, then little), "fake/real"
// (the clock cpufreq reports, then the one the firmware reports), "cpu0/cpu4" (one per
// cluster, named by its first CPU), else "clock".
func clockNames(columns []string) func(int) string {
	head := ""
	if len(columns) > 1 {
		head = columns[1]
	}
	var names []string
	switch head {
	case "big.LITTLE":
		names = []string{"big cores", "little cores"}
	case "fake/real":
		names = []string{"clock cpufreq reports", "clock the firmware reports"}
	default:
		if strings.HasPrefix(head, "cpu") {
			names = strings.Split(head, "/")
		}
	}
	return func(i int) string {
		if i < len(names) {
			return names[i]
		}
		if i == 0 {
			return "clock"
		}
		return "clock " + strconv.Itoa(i+1)
	}
}
