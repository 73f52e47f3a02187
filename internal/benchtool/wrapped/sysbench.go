package wrapped

import (
	"boardbench/internal/lazyre"
	"strings"
)

// SysbenchFigures are what sysbench 1.x prints for its cpu, memory and
// threads tests (and the general statistics of any other test). A figure
// the test does not print is nil.
type SysbenchFigures struct {
	// Test is "cpu", "memory", "threads", "mutex" or "fileio" as named on
	// the command line (or "cpu"/"memory" from the output's shape); ""
	// when unknown.
	Test string `json:"test"`
	// Threads is the "Number of threads" line.
	Threads *int64 `json:"threads"`
	// EventsPerSecond is the cpu test's "events per second".
	EventsPerSecond *float64 `json:"events_per_s"`
	// TotalEvents and TotalTimeS are from the general statistics.
	TotalEvents *int64   `json:"total_events"`
	TotalTimeS  *float64 `json:"total_time_s"`
	// MiBPerSec and MiBTransferred are the memory test's
	// "N MiB transferred (X MiB/sec)" line.
	MiBPerSec      *float64 `json:"mib_s"`
	MiBTransferred *float64 `json:"mib_transferred"`
	// Latency in milliseconds: minimum, average, maximum and the
	// percentile sysbench prints (95th by default).
	LatencyMinMs *float64 `json:"latency_min_ms"`
	LatencyAvgMs *float64 `json:"latency_avg_ms"`
	LatencyMaxMs *float64 `json:"latency_max_ms"`
	// LatencyPercentile is the percentile of LatencyPctMs (95 by default).
	LatencyPercentile *int64   `json:"latency_percentile"`
	LatencyPctMs      *float64 `json:"latency_percentile_ms"`
}

var (
	sysbenchVersionRE     = lazyre.Regexp(`^sysbench\s+(\d+\.\d+(?:\.\d+)?)`)
	sysbenchTransferredRE = lazyre.Regexp(`^([\d.]+)\s+MiB transferred\s+\(([\d.]+)\s+MiB/sec\)`)
	sysbenchPercentileRE  = lazyre.Regexp(`^(\d+)(?:th|st|nd|rd) percentile:\s*([\d.]+)`)
	sysbenchSecondsRE     = lazyre.Regexp(`^([\d.]+)s$`)
)

// sysbenchTests are the test names sysbench accepts on the command line.
var sysbenchTests = []string{"cpu", "memory", "threads", "mutex", "fileio"}

// parseSysbench reads sysbench 1.x output. It needs the "sysbench X.Y"
// banner and at least one figure.
func parseSysbench(argv []string, out string, f *Figures) bool {
	fig := &SysbenchFigures{}
	banner, found := false, false
	section := ""
	for _, raw := range lines(out) {
		line := strings.TrimSpace(raw)
		if m := sysbenchVersionRE.FindStringSubmatch(line); m != nil && !banner {
			banner, f.Version = true, m[1]
			continue
		}
		if m := sysbenchTransferredRE.FindStringSubmatch(line); m != nil {
			fig.MiBTransferred, fig.MiBPerSec = numberPtr(m[1]), numberPtr(m[2])
			fig.Test, found = "memory", fig.MiBPerSec != nil
			continue
		}
		if strings.HasSuffix(line, ":") && !strings.Contains(line, "  ") {
			section = strings.TrimSuffix(line, ":")
			continue
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		switch {
		case key == "Number of threads":
			if n, ok := integer(val); ok {
				fig.Threads = &n
			}
		case key == "events per second":
			if fig.EventsPerSecond = numberPtr(val); fig.EventsPerSecond != nil {
				found = true
				if section == "CPU speed" {
					fig.Test = "cpu"
				}
			}
		case key == "total number of events":
			if n, ok := integer(val); ok {
				fig.TotalEvents, found = &n, true
			}
		case key == "total time":
			if m := sysbenchSecondsRE.FindStringSubmatch(val); m != nil {
				fig.TotalTimeS = numberPtr(m[1])
			}
		case strings.HasPrefix(section, "Latency"):
			switch key {
			case "min":
				fig.LatencyMinMs = numberPtr(val)
			case "avg":
				fig.LatencyAvgMs = numberPtr(val)
			case "max":
				fig.LatencyMaxMs = numberPtr(val)
			default:
				if m := sysbenchPercentileRE.FindStringSubmatch(line); m != nil {
					if p, ok := integer(m[1]); ok {
						fig.LatencyPercentile = &p
					}
					fig.LatencyPctMs = numberPtr(m[2])
				}
			}
		}
	}
	if !banner || !found {
		f.Version = ""
		return false
	}
	if t := sysbenchTestArg(argv); t != "" {
		fig.Test = t
	}
	f.Sysbench = fig
	return true
}

// sysbenchTestArg is the test named on the command line ("sysbench cpu
// run", "sysbench --threads=4 memory run"), "" when none.
func sysbenchTestArg(argv []string) string {
	for _, a := range argv {
		for _, w := range strings.Fields(a) {
			for _, t := range sysbenchTests {
				if w == t {
					return t
				}
			}
		}
	}
	return ""
}
