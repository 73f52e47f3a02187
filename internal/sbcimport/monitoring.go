package sbcimport

import (
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
	p.log.Monitoring = append(p.log.Monitoring, m)
	return last
}
