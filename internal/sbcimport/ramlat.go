package sbcimport

import (
	"boardbench/internal/lazyre"
	"strconv"
	"strings"

	"boardbench/internal/result"
)

var (
	reRamlatHead = lazyre.Regexp(`^Executing ramlat on cpu(\d+)(?: \((.*)\))?`)
	reRamlatRow  = lazyre.Regexp(`^\s*(\d+)k:\s+(.*)$`)
)

// ramlat reads one ramlat table: latency in ns per block size (KiB) and
// access pattern.
func (p *parser) ramlat(i int) int {
	var t result.ImportedRamlat
	if m := reRamlatHead.FindStringSubmatch(p.lines[i]); m != nil {
		v, _ := strconv.Atoi(m[1])
		t.CPU, t.Core = &v, m[2]
	}
	j := i + 1
	for ; j < len(p.lines); j++ {
		line := p.lines[j]
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			if len(t.Rows) > 0 {
				break
			}
			continue
		}
		if rest, ok := strings.CutPrefix(trimmed, "size:"); ok {
			t.Columns = strings.Fields(rest)
			continue
		}
		m := reRamlatRow.FindStringSubmatch(line)
		if m == nil {
			break
		}
		kib, _ := strconv.ParseInt(m[1], 10, 64)
		row := result.ImportedRamlatRow{SizeBytes: kib << 10}
		for _, cell := range strings.Fields(m[2]) {
			row.NS = append(row.NS, optFloat(cell))
		}
		t.Rows = append(t.Rows, row)
	}
	if len(t.Rows) == 0 {
		p.log.note("ramlat table %d: no rows read", len(p.log.Ramlat)+1)
		return j - 1
	}
	p.log.Ramlat = append(p.log.Ramlat, t)
	return j - 1
}
