package wrapped

import (
	"boardbench/internal/lazyre"
	"slices"
	"strings"
)

// CPUMinerFigures are the hash rates cpuminer (cpuminer-multi, or pooler's
// minerd) prints in its benchmark mode (`--benchmark`): a "Total: X kH/s"
// line every few seconds.
type CPUMinerFigures struct {
	// Build is the program's banner name, "cpuminer-multi" or "cpuminer".
	Build string `json:"build"`
	// Algorithm is the hashing algorithm named when the threads start,
	// e.g. "scrypt" (the default, and the one the published results
	// table's kH/s column uses); "" when not printed.
	Algorithm string `json:"algorithm"`
	// Threads is the number of miner threads started; nil when not printed.
	Threads *int64 `json:"threads"`
	// TotalKHs are the "Total:" hash rates in kH/s (1000 hashes per
	// second), in order.
	TotalKHs []float64 `json:"total_kh_s"`
	// MedianKHs is the median of TotalKHs.
	MedianKHs float64 `json:"median_kh_s"`
}

var (
	cpuminerBannerRE = lazyre.Regexp(`\*\*\s+(cpuminer(?:-multi)?)\s+(\d+(?:\.\d+)+)\s+by\s`)
	cpuminerStartRE  = lazyre.Regexp(`(\d+) miner threads started, using '([^']+)' algorithm`)
	cpuminerTotalRE  = lazyre.Regexp(`Total:\s+([\d.]+)\s+(k?)(?:H|hash)/s`)
)

// cpuminerUnitScale turns a Total line's rate into kH/s by its unit prefix
// ("" for H/s, "k" for kH/s, the only two cpuminerTotalRE matches).
func cpuminerUnitScale(prefix string) float64 {
	if prefix == "k" {
		return 1
	}
	return 0.001
}

// parseCPUMiner reads the Total lines of a benchmark run.
func parseCPUMiner(_ []string, out string, f *Figures) bool {
	fig := &CPUMinerFigures{}
	for _, raw := range lines(out) {
		line := strings.TrimSpace(raw)
		if m := cpuminerBannerRE.FindStringSubmatch(line); m != nil && fig.Build == "" {
			fig.Build, f.Version = m[1], m[2]
			continue
		}
		if m := cpuminerStartRE.FindStringSubmatch(line); m != nil {
			if n, ok := integer(m[1]); ok {
				fig.Threads = &n
			}
			fig.Algorithm = m[2]
			continue
		}
		if m := cpuminerTotalRE.FindStringSubmatch(line); m != nil {
			if v, ok := number(m[1]); ok && v >= 0 {
				fig.TotalKHs = append(fig.TotalKHs, v*cpuminerUnitScale(m[2]))
			}
		}
	}
	// A Total line alone is too common a shape: require the banner or the
	// start line as well.
	if len(fig.TotalKHs) == 0 || (fig.Build == "" && fig.Algorithm == "") {
		f.Version = ""
		return false
	}
	fig.MedianKHs = median(fig.TotalKHs)
	f.CPUMiner = fig
	return true
}

// median of a non-empty slice.
func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
