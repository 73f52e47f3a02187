package sbcimport

import (
	"boardbench/internal/lazyre"
	"strconv"
	"strings"
	"time"
)

// LSBOrder are the lsb_release lines the log starts with.
var LSBOrder = []string{"Distributor ID", "Description", "Release", "Codename"}

var (
	// "sbc-bench v0.9.72 Raspberry Pi 5 Model B Rev 1.0 (Tue, 19 Mar 2024 19:04:10 +0100)"
	reVersionLine = lazyre.Regexp(`^sbc-bench v(\d+\.\d+(?:\.\d+)?)\s*(.*?)\s*(?:\(([^()]*)\))?\s*$`)
	// iostat: "Linux 6.6.10-generic (host) 	11/10/25 	_aarch64_	(12 CPU)"
	reIostat = lazyre.Regexp(`^Linux (\S+) \((.*?)\)\s.*\s_(\S+)_\s+\((\d+) CPU\)`)
	// uname -a: "Linux raspberrypi 4.14.50-v7+ #1122 SMP ... armv7l GNU/Linux"
	reUname    = lazyre.Regexp(`^Linux (\S+) (\d\S*) #.* (\S+) GNU/Linux\s*$`)
	reUserland = lazyre.Regexp(`^\s*Userland: (\S+)`)
	reLscpuMax = lazyre.Regexp(`^CPU max MHz:\s+([\d.]+)`)
	reTested   = lazyre.Regexp(`^Tested with sbc-bench v\S+ on (.*)\.\s*$`)
)

// dateLayouts are the forms of the dates the logs print (date -R).
var dateLayouts = []string{time.RFC1123Z, "Mon, 2 Jan 2006 15:04:05 -0700", time.RFC1123}

func parseDate(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	for _, layout := range dateLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// parseVersionLine reads the log's first line; false when line is not it.
func parseVersionLine(l *Log, line string) bool {
	m := reVersionLine.FindStringSubmatch(strings.TrimSpace(line))
	if m == nil {
		return false
	}
	l.Version, l.Device = m[1], strings.Join(strings.Fields(m[2]), " ")
	if rest, ok := strings.CutPrefix(l.Device, "-- "); ok && m[3] == "" {
		// the 0.4 logs: "sbc-bench v0.4 -- DATE", no device
		l.Device = ""
		if t, ok := parseDate(rest); ok {
			l.Date = t
		} else {
			l.note("first line: date %q not understood", rest)
		}
	}
	if m[3] != "" {
		if t, ok := parseDate(m[3]); ok {
			l.Date = t
		} else {
			l.note("first line: date %q not understood", m[3])
		}
	}
	return true
}

// parseHeaderLine reads the one-line facts: lsb_release, kernel, userland,
// lscpu's maximum clock, the date of the summary. It reports whether line
// was one of them.
func parseHeaderLine(l *Log, line string) bool {
	for _, k := range LSBOrder {
		if v, ok := strings.CutPrefix(line, k+":"); ok {
			if _, seen := l.Distro[k]; !seen {
				l.Distro[k] = strings.TrimSpace(v)
			}
			return true
		}
	}
	if m := reIostat.FindStringSubmatch(line); m != nil {
		if l.KernelRelease == "" || l.Hostname == "" {
			l.KernelRelease, l.Hostname, l.Machine = m[1], m[2], m[3]
			l.CPUCount, _ = strconv.Atoi(m[4])
		}
		return true
	}
	if m := reUname.FindStringSubmatch(line); m != nil {
		if l.KernelRelease == "" {
			l.Hostname, l.KernelRelease, l.Machine = m[1], m[2], m[3]
		}
		return true
	}
	if m := reUserland.FindStringSubmatch(line); m != nil {
		if l.Userland == "" {
			l.Userland = m[1]
		}
		return true
	}
	if m := reLscpuMax.FindStringSubmatch(line); m != nil {
		if v, err := strconv.ParseFloat(m[1], 64); err == nil {
			l.LscpuMaxMHz = append(l.LscpuMaxMHz, v)
		}
		return true
	}
	if m := reTested.FindStringSubmatch(line); m != nil {
		if t, ok := parseDate(m[1]); ok {
			l.TestedAt = t
		} else {
			l.note("summary: date %q not understood", m[1])
		}
		return true
	}
	return false
}

// numberList reads "a,b,c"; numbers that do not parse become a note.
func (p *parser) numberList(s, what string) []float64 {
	out := []float64{}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			p.log.note("%s: %q is not a number", what, f)
			continue
		}
		out = append(out, v)
	}
	return out
}

// cpuList reads "0-3,6" or "cpu0-cpu3" into CPU ids; nil when not a list.
func cpuList(s string) []int {
	s = strings.ReplaceAll(strings.TrimSpace(s), "cpu", "")
	if s == "" {
		return nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		a, err := strconv.Atoi(strings.TrimSpace(lo))
		if err != nil {
			return nil
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(strings.TrimSpace(hi)); err != nil || b < a || b-a > 4096 {
				return nil
			}
		}
		for c := a; c <= b; c++ {
			out = append(out, c)
		}
	}
	return out
}
