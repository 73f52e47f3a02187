package chart

import (
	"context"
	"strconv"
	"strings"

	"boardbench/internal/result"

	"gonum.org/v1/plot/plotter"
)

// importedPlots draws the temperature and the clocks over time from the
// monitor lines of an imported log (result.ImportedFigures.Monitoring):
// the time is the seconds since the log's first monitor line.
func importedPlots(ctx context.Context, r *result.Result, board string) ([]named, error) {
	check := ctxCheck(ctx)
	f := result.ImportedOf(r)
	if f == nil || len(f.Monitoring) == 0 {
		return nil, nil
	}
	temp := series{label: "temperature (from the log)"}
	var clocks []series
	first, last, day := -1.0, -1.0, 0.0
	for _, m := range f.Monitoring {
		names := clockNames(m.Columns)
		for _, row := range m.Rows {
			if err := check(); err != nil {
				return nil, err
			}
			if len(row) == 0 {
				continue
			}
			t, ok := clockTime(row[0])
			if !ok {
				continue
			}
			t += day
			if last >= 0 && t < last-3600 {
				// Past midnight.
				day += 86400
				t += 86400
			}
			if first < 0 {
				first = t
			}
			last = t
			x := t - first
			for _, field := range row[1:] {
				switch {
				case strings.HasSuffix(field, "°C"):
					if v, err := strconv.ParseFloat(strings.TrimSuffix(field, "°C"), 64); err == nil && finite(v) {
						temp.xys = append(temp.xys, plotter.XY{X: x, Y: v})
					}
				case strings.HasSuffix(field, "MHz"):
					for i, part := range strings.Split(strings.TrimSuffix(field, "MHz"), "/") {
						v, err := strconv.ParseFloat(part, 64)
						if err != nil || !finite(v) || v <= 0 {
							continue
						}
						for len(clocks) <= i {
							clocks = append(clocks, series{})
						}
						if clocks[i].label == "" {
							clocks[i].label = names(i)
						}
						clocks[i].xys = append(clocks[i].xys, plotter.XY{X: x, Y: v})
					}
				}
			}
		}
	}
	var out []named
	for _, c := range []struct {
		name, title, y string
		ss             []series
	}{
		{"imported-temperature", "Temperature over time (imported log)", "temperature (°C)", []series{temp}},
		{"imported-clock", "Clock over time (imported log)", "clock (MHz)", clocks},
	} {
		if !hasPoints(c.ss) {
			continue
		}
		title := c.title + " — " + board
		p, err := linePlot(title, "time since the log's first monitor line (s)", c.y, c.ss)
		if err != nil {
			return nil, err
		}
		out = append(out, named{c.name, title, p})
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
