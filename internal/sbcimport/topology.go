package sbcimport

import (
	"boardbench/internal/lazyre"
	"strconv"
	"strings"

	"boardbench/internal/result"
)

// "  0        0        0      800    2600   Cortex-A720 / r0p1"
var reTopoRow = lazyre.Regexp(`^\s*(\d+)\s+(-?\d+)\s+(\d+|-)\s+(\d+|-)\s+(\d+|-)\s*(.*)$`)

// topology reads the CPU topology table; the last table in a log wins
// (the script prints the same table twice).
func (p *parser) topology(i int) int {
	var rows []result.ImportedTopologyCPU
	j := i + 1
	for ; j < len(p.lines); j++ {
		line := p.lines[j]
		m := reTopoRow.FindStringSubmatch(line)
		if m == nil {
			if strings.TrimSpace(line) == "" && len(rows) > 0 {
				break
			}
			if len(rows) > 0 || j > i+3 {
				break
			}
			continue // the table's two header lines
		}
		r := result.ImportedTopologyCPU{Core: strings.TrimSpace(m[6])}
		r.CPU, _ = strconv.Atoi(m[1])
		r.Cluster, _ = strconv.Atoi(m[2])
		if m[3] != "-" {
			v, _ := strconv.Atoi(m[3])
			r.Policy = &v
		}
		r.MinMHz, r.MaxMHz = optFloat(m[4]), optFloat(m[5])
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		p.log.note("CPU topology table: no rows read")
		return i
	}
	p.log.Topology = rows
	return j - 1
}

func optFloat(s string) *float64 {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return nil
	}
	return &v
}
