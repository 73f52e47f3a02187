package sbcimport

import (
	"strconv"
	"strings"

	"boardbench/internal/result"
)

// monitoring reads one block of monitor lines: a header line starting with
// "Time" and the lines under it, up to a blank line.
func (p *parser) monitoring(i int, while string) int {
	m := result.ImportedMonitoring{While: while}
	j := i + 1
	for ; j < len(p.lines); j++ {
		line := p.lines[j]
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == "":
			if m.Columns != nil {
				return p.addMonitoring(m, j-1)
			}
		case strings.HasPrefix(line, "Time ") && m.Columns == nil:
			m.Columns = strings.Fields(line)
		case m.Columns != nil && len(line) > 8 && line[2] == ':' && line[5] == ':':
			m.Rows = append(m.Rows, strings.Fields(line))
		default:
			return p.addMonitoring(m, j-1)
		}
	}
	return p.addMonitoring(m, j-1)
}

func (p *parser) addMonitoring(m result.ImportedMonitoring, last int) int {
	if m.Columns == nil {
		p.log.note("monitor lines while running %s: no header line", m.While)
		return last
	}
	if n := len(m.Rows); n > MaxMonitorRows {
		m.Rows = thinRows(m.Columns, m.Rows, MaxMonitorRows)
		m.RowsInLog = n
		p.log.note("monitor lines while running %s: %d of the block's %d lines kept (the lowest and the highest temperature of each stretch); all are in the original text",
			m.While, len(m.Rows), n)
	}
	p.log.Monitoring = append(p.log.Monitoring, m)
	return last
}

// MaxMonitorRows is the most monitor lines import keeps per block as
// rows: a log of a day-long run (or a hostile one) has a hundred thousand,
// which the original text already holds; the rows are what the charts
// and the text report show, and no view shows more than this.
const MaxMonitorRows = 1000

// thinRows returns at most limit of rows, in order: the rows are cut into
// limit/2 stretches, and of each the row with the lowest and the one with
// the highest temperature (the column named "Temp", a field ending in
// "°C") are kept; where a stretch has no temperature, its first and last
// rows.
func thinRows(columns []string, rows [][]string, limit int) [][]string {
	col := -1
	for i, c := range columns {
		if strings.EqualFold(c, "Temp") {
			col = i
		}
	}
	temp := func(row []string) (float64, bool) {
		if col < 0 || col >= len(row) {
			return 0, false
		}
		v, err := strconv.ParseFloat(strings.TrimSuffix(row[col], "°C"), 64)
		return v, err == nil
	}
	n, buckets := len(rows), limit/2
	out := make([][]string, 0, limit)
	for b := 0; b < buckets; b++ {
		lo, hi := b*n/buckets, (b+1)*n/buckets
		if lo >= hi {
			continue
		}
		first, second := lo, hi-1
		minI, maxI, minV, maxV := -1, -1, 0.0, 0.0
		for i := lo; i < hi; i++ {
			v, ok := temp(rows[i])
			if !ok {
				continue
			}
			if minI < 0 || v < minV {
				minI, minV = i, v
			}
			if maxI < 0 || v > maxV {
				maxI, maxV = i, v
			}
		}
		if minI >= 0 {
			first, second = min(minI, maxI), max(minI, maxI)
		}
		out = append(out, rows[first])
		if second != first {
			out = append(out, rows[second])
		}
	}
	return out
}
