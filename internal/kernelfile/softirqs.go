package kernelfile

import (
	"bufio"
	"bytes"
	"strings"
)

// Softirqs is the content of /proc/softirqs: cumulative counts of each
// software interrupt (NET_RX, NET_TX, TIMER...) per CPU.
type Softirqs struct {
	// CPUs are the CPU numbers of the columns, from the header.
	CPUs []int
	// Counts maps a softirq name ("NET_RX") to its counts, parallel to
	// CPUs.
	Counts map[string][]uint64
}

// CountOn returns the count of softirq name on cpu (0 when unknown).
func (s Softirqs) CountOn(name string, cpu int) uint64 {
	counts := s.Counts[name]
	for i, c := range s.CPUs {
		if c == cpu && i < len(counts) {
			return counts[i]
		}
	}
	return 0
}

// ParseSoftirqs parses /proc/softirqs ("NAME: count..." under a header of
// CPU columns). Lines that do not parse are skipped; ok is false without a
// header naming at least one CPU.
func ParseSoftirqs(data []byte) (Softirqs, bool) {
	out := Softirqs{Counts: map[string][]uint64{}}
	cpus, body, ok := cpuHeader(bytes.TrimLeft(data, " \t"))
	if !ok {
		return out, false
	}
	out.CPUs = cpus
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for sc.Scan() && len(out.Counts) < 64 {
		name, rest, found := strings.Cut(sc.Text(), ":")
		name = strings.TrimSpace(name)
		if !found || name == "" || strings.ContainsAny(name, " \t") {
			continue
		}
		counts, _ := leadingCounts(rest, len(cpus))
		if len(counts) > 0 {
			out.Counts[name] = counts
		}
	}
	return out, true
}
