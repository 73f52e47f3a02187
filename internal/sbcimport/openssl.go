package sbcimport

import (
	"boardbench/internal/lazyre"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/result"
)

// OpenSSLRun is the log's openssl speed table. The script runs openssl
// once per cluster (or twice on one); the n-th line of a cipher belongs to
// the n-th run, whose core type the line names in parentheses in newer
// versions.
type OpenSSLRun struct {
	// Version is the version line as printed.
	Version string
	// Twice is set when the log ran the benchmark twice on one cluster:
	// it says so ("Executing benchmark twice on cluster"), or, in the logs
	// before 0.9 that name no core type, it shows two runs and checked the
	// clock of one group of CPUs only (see resolveOpenSSL).
	Twice bool
	Runs  []result.OpenSSLFigures
	Raw   []string
}

var (
	reOpenSSLVersion = lazyre.Regexp(`^(OpenSSL|LibreSSL) \d`)
	reBlockHeader    = lazyre.Regexp(`(\d+) bytes`)
	// "aes-256-cbc     848212.30k  1326481.54k ... (Cortex-A720)"
	reCipherLine = lazyre.Regexp(`^([a-z][a-z0-9-]+)\s+((?:[\d.]+k\s*)+)(?:\((.*)\))?\s*$`)
)

func isOpenSSLVersion(line string) bool { return reOpenSSLVersion.MatchString(line) }

// openssl reads a "type 16 bytes 64 bytes ..." table.
func (p *parser) openssl(i int) int {
	o := &p.log.OpenSSL
	var sizes []int
	for _, m := range reBlockHeader.FindAllStringSubmatch(p.lines[i], -1) {
		v, _ := strconv.Atoi(m[1])
		sizes = append(sizes, v)
	}
	seen := map[string]int{}
	j := i + 1
	for ; j < len(p.lines); j++ {
		line := p.lines[j]
		if strings.TrimSpace(line) == "" {
			break
		}
		m := reCipherLine.FindStringSubmatch(line)
		if m == nil {
			p.log.note("openssl: line %q not understood", line)
			continue
		}
		cipher := m[1]
		k := seen[cipher]
		seen[cipher]++
		for len(o.Runs) <= k {
			o.Runs = append(o.Runs, result.OpenSSLFigures{Version: o.Version, Core: m[3]})
		}
		c := result.OpenSSLCipher{Cipher: cipher}
		for n, cell := range strings.Fields(m[2]) {
			if n >= len(sizes) {
				p.log.note("openssl: %s has more values than block sizes", cipher)
				break
			}
			c.Values = append(c.Values, result.OpenSSLValue{BlockBytes: sizes[n], KBs: optFloat(strings.TrimSuffix(cell, "k"))})
		}
		if o.Runs[k].Core == "" {
			o.Runs[k].Core = m[3]
		}
		o.Runs[k].Ciphers = append(o.Runs[k].Ciphers, c)
	}
	o.Raw = append(o.Raw, p.lines[i:j]...)
	return j - 1
}

// opensslCPUs returns the CPU of each openssl run where the log tells it:
// the script runs openssl on each cluster in the order it checked their
// clocks, so with as many runs as clock checks, and every run's core type
// (where printed) that of its check, the n-th run ran on the n-th checked
// CPU. Otherwise the runs' CPUs are unknown (nil).
func (l *Log) opensslCPUs() [][]int {
	out := make([][]int, len(l.OpenSSL.Runs))
	if l.OpenSSL.Twice || len(l.OpenSSL.Runs) != len(l.Clock) || len(l.Clock) < 2 {
		return out
	}
	for k, o := range l.OpenSSL.Runs {
		if o.Core == "" || o.Core != l.Clock[k].Core || l.Clock[k].NoCpufreq {
			return make([][]int, len(l.OpenSSL.Runs))
		}
		out[k] = []int{l.Clock[k].CPU}
	}
	return out
}

// ParallelCore is what the extensive mode's openssl runs on all CPUs at
// once print in place of a core type: they are not single-threaded
// figures.
const ParallelCore = "fully parallel"

// resolveOpenSSL decides whether a log that does not say so ran openssl
// twice on one cluster: two single-threaded runs naming no core type, in a
// log that checked the clock of one group of CPUs (the script ran openssl
// once per cluster, twice when there was one).
func (l *Log) resolveOpenSSL() {
	o := &l.OpenSSL
	if o.Twice {
		return
	}
	var single []result.OpenSSLFigures
	for _, r := range o.Runs {
		if r.Core != ParallelCore {
			single = append(single, r)
		}
	}
	if len(single) != 2 || single[0].Core != "" || single[1].Core != "" {
		return
	}
	groups := 0
	for k, c := range l.Clock {
		if k == 0 || !slices.Equal(c.CPUs, l.Clock[0].CPUs) {
			groups++
		}
	}
	clusters := map[int]bool{}
	for _, t := range l.Topology {
		clusters[t.Cluster] = true
	}
	if groups <= 1 && len(clusters) <= 1 {
		o.Twice = true
	}
}
