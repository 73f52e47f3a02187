package sbcimport

import (
	"boardbench/internal/lazyre"
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// ClusterCheck is one "Checking cpufreq OPP" block: the clock measured at
// each cpufreq OPP of a group of CPUs, highest OPP first (whatever the order
// the log lists them in: versions 0.4 and 0.5 list the lowest first); or
// the clock measured without cpufreq (NoCpufreq). A check that measured
// nothing (no OPP lines, "0 MHz") is not kept; the log's notes say so.
type ClusterCheck struct {
	// CPUs as the heading names them; CPU is the one measured (the first,
	// or cpu0 when the heading names none: the script then checks cpu0).
	CPUs []int
	CPU  int
	Core string
	OPPs []OPPCheck
	// NoCpufreq is set for "No cpufreq support available" lines: OPPs then
	// has one entry with OPPMHz 0.
	NoCpufreq bool
}

// OPPCheck is one "Cpufreq OPP: 1800 Measured: 1795 (...)" line.
type OPPCheck struct {
	OPPMHz float64
	// MeasuredMHz is the measured clock as printed, or the median of the
	// samples where the line lists only samples.
	MeasuredMHz float64
	Samples     []float64
	// Voltage is the voltage the oldest logs print ("1.2313V"), "".
	Voltage string
}

var (
	reChecking  = lazyre.Regexp(`^Checking cpufreq OPP(?: for (cpu[\d,-]+(?:cpu\d+)?))?(?: \((.*)\))?:?\s*$`)
	reOPPLine   = lazyre.Regexp(`^Cpufreq OPP:\s*(\d+)\s+(?:ThreadX:\s*\d+\s+)?Measured:\s*(.*)$`)
	reNoCpufreq = lazyre.Regexp(`^No cpufreq support available\. Measured on cpu(\d+):\s*(.*)$`)
	// "2598 (2598.747/2598.642/2598.642)", "1200 @ 1.2313V", "1198.3/1199.0/1198.9"
	reMeasuredParen = lazyre.Regexp(`^(\d+(?:\.\d+)?)\s*(?:M[Hh]z)?\s*\(([^)]*)\)`)
	reMeasuredVolt  = lazyre.Regexp(`^(\d+(?:\.\d+)?)\s*@\s*(\S+)`)
	reMeasuredList  = lazyre.Regexp(`^(\d+(?:\.\d+)?(?:/\d+(?:\.\d+)?)+)`)
	reMeasuredOne   = lazyre.Regexp(`^(\d+(?:\.\d+)?)\s*(?:M[Hh]z)?\s*$`)
)

// clock reads one "Checking cpufreq OPP" block or a "No cpufreq support"
// line.
func (p *parser) clock(i int) int {
	line := p.lines[i]
	var c ClusterCheck
	if m := reNoCpufreq.FindStringSubmatch(line); m != nil {
		c.CPU, _ = strconv.Atoi(m[1])
		c.CPUs, c.NoCpufreq = []int{c.CPU}, true
		o, ok := parseMeasured(m[2])
		if !ok {
			p.log.note("clock without cpufreq on cpu%d: %q not understood", c.CPU, strings.TrimSpace(m[2]))
			return i
		}
		if o.MeasuredMHz <= 0 {
			// "Measured on cpu1: 0 MHz ()": the measurement failed
			p.log.note("clock without cpufreq on cpu%d: the log shows no measured clock (%q)", c.CPU, strings.TrimSpace(m[2]))
			return i
		}
		c.OPPs = []OPPCheck{o}
		p.addCheck(c)
		return i
	}
	m := reChecking.FindStringSubmatch(line)
	if m == nil {
		p.log.note("clock check heading %q not understood", line)
		return i
	}
	if m[1] != "" {
		c.CPUs = cpuList(m[1])
	}
	if len(c.CPUs) > 0 {
		c.CPU = c.CPUs[0]
	}
	c.Core = m[2]
	j := i + 1
	for ; j < len(p.lines); j++ {
		l := p.lines[j]
		if strings.TrimSpace(l) == "" {
			if len(c.OPPs) > 0 {
				break
			}
			continue
		}
		om := reOPPLine.FindStringSubmatch(l)
		if om == nil {
			break
		}
		o, ok := parseMeasured(om[2])
		if !ok {
			p.log.note("clock check of cpu%d: line %q not understood", c.CPU, l)
			continue
		}
		o.OPPMHz, _ = strconv.ParseFloat(om[1], 64)
		c.OPPs = append(c.OPPs, o)
	}
	if len(c.OPPs) == 0 {
		p.log.note("clock check of cpu%d: no OPP lines", c.CPU)
		return j - 1
	}
	// the oldest versions list the OPPs lowest first
	slices.SortStableFunc(c.OPPs, func(a, b OPPCheck) int { return cmp.Compare(b.OPPMHz, a.OPPMHz) })
	p.addCheck(c)
	return j - 1
}

func (p *parser) addCheck(c ClusterCheck) {
	if p.afterLoad {
		p.log.ClockAfterLoad = append(p.log.ClockAfterLoad, c)
	} else {
		p.log.Clock = append(p.log.Clock, c)
	}
}

// parseMeasured reads what follows "Measured:".
func parseMeasured(s string) (OPPCheck, bool) {
	s = strings.TrimSpace(s)
	var o OPPCheck
	if m := reMeasuredParen.FindStringSubmatch(s); m != nil {
		o.MeasuredMHz, _ = strconv.ParseFloat(m[1], 64)
		o.Samples = samples(m[2])
		return o, true
	}
	if m := reMeasuredVolt.FindStringSubmatch(s); m != nil {
		o.MeasuredMHz, _ = strconv.ParseFloat(m[1], 64)
		o.Voltage = m[2]
		return o, true
	}
	if m := reMeasuredList.FindStringSubmatch(s); m != nil {
		o.Samples = samples(m[1])
		if len(o.Samples) == 0 {
			return o, false
		}
		sorted := slices.Sorted(slices.Values(o.Samples))
		o.MeasuredMHz = sorted[len(sorted)/2]
		if len(sorted)%2 == 0 {
			o.MeasuredMHz = (sorted[len(sorted)/2-1] + sorted[len(sorted)/2]) / 2
		}
		return o, true
	}
	if m := reMeasuredOne.FindStringSubmatch(s); m != nil {
		o.MeasuredMHz, _ = strconv.ParseFloat(m[1], 64)
		return o, true
	}
	return o, false
}

func samples(s string) []float64 {
	var out []float64
	for _, f := range strings.Split(s, "/") {
		if v, err := strconv.ParseFloat(strings.TrimSpace(f), 64); err == nil {
			out = append(out, v)
		}
	}
	return out
}
