package sbcimport

import (
	"boardbench/internal/lazyre"
	"strconv"
	"strings"

	"boardbench/internal/result"
)

var (
	reThrottlingHead = lazyre.Regexp(`for CPUs ([\d,-]+)(?: \((.*)\))?:`)
	reOPPTime        = lazyre.Regexp(`^\s*(\d+) MHz:\s*([\d.]*)\s*(?:sec)?\s*$`)
)

// throttling reads one block of cpufreq statistics: the time spent at each
// OPP, in seconds ("Throttling statistics") or milliseconds (the oldest
// "Throttling occured. Cpufreq statistics" form).
func (p *parser) throttling(i int) int {
	head := p.lines[i]
	t := result.ImportedThrottling{Unit: "s"}
	if strings.Contains(head, "milliseconds") {
		t.Unit = "ms"
	}
	if m := reThrottlingHead.FindStringSubmatch(head); m != nil {
		t.CPUs, t.Core = m[1], m[2]
	}
	j := i + 1
	for ; j < len(p.lines); j++ {
		line := p.lines[j]
		if strings.TrimSpace(line) == "" {
			if len(t.OPPs) > 0 {
				break
			}
			continue
		}
		m := reOPPTime.FindStringSubmatch(line)
		if m == nil {
			break
		}
		mhz, _ := strconv.ParseFloat(m[1], 64)
		t.OPPs = append(t.OPPs, result.ImportedOPPTime{MHz: mhz, Time: optFloat(m[2])})
	}
	if len(t.OPPs) == 0 {
		p.log.note("throttling statistics %q: no lines read", strings.TrimSpace(head))
		return j - 1
	}
	p.log.Throttling = append(p.log.Throttling, t)
	return j - 1
}
