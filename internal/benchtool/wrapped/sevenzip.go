package wrapped

import (
	"strings"

	"boardbench/internal/benchtool/sevenzip"
)

// SevenZipFigures are the runs of 7-Zip's benchmark (`7zz b`), in order.
type SevenZipFigures struct {
	// Runs holds one entry per complete run (a "Tot:" line); `7zz b` run
	// several times in one command gives several.
	Runs []SevenZipRun `json:"runs"`
	// MeanRatingMIPS is the mean of the runs' total ratings.
	MeanRatingMIPS float64 `json:"mean_rating_mips"`
	// Single is true when every run used one thread (-mmt1, or the
	// "Benchmark threads" line says 1).
	Single bool `json:"single_threaded"`
}

// SevenZipRun is one run's "Tot:" line and the thread counts of its header.
type SevenZipRun struct {
	// RatingMIPS is the total rating (the Tot line's last column), the
	// figure the community compares.
	RatingMIPS int64 `json:"rating_mips"`
	// UsagePct is the run's CPU usage in percent of one hardware thread
	// (the Tot line's first column): about 100 × threads when nothing
	// else competed for the CPUs.
	UsagePct int64 `json:"usage_pct"`
	// RUMIPS is the rating per 100 % usage.
	RUMIPS int64 `json:"ru_mips"`
	// BenchmarkThreads and HardwareThreads are from the header; nil when
	// not printed.
	BenchmarkThreads *int `json:"benchmark_threads"`
	HardwareThreads  *int `json:"hardware_threads"`
}

// parseSevenZip reads the runs of 7-Zip's benchmark with the runner's parser.
func parseSevenZip(argv []string, out string, f *Figures) bool {
	runs, err := sevenzip.ParseAll(out)
	if err != nil || len(runs) == 0 {
		return false
	}
	fig := &SevenZipFigures{Single: true}
	var sum float64
	for _, r := range runs {
		fig.Runs = append(fig.Runs, SevenZipRun{
			RatingMIPS: r.Total.RatingMIPS, UsagePct: r.Total.UsagePct, RUMIPS: r.Total.RUMIPS,
			BenchmarkThreads: r.BenchmarkThreads, HardwareThreads: r.HardwareThreads,
		})
		sum += float64(r.Total.RatingMIPS)
		if !(r.BenchmarkThreads != nil && *r.BenchmarkThreads == 1) {
			fig.Single = false
		}
		if f.Version == "" {
			f.Version = r.Version
		}
	}
	if !fig.Single && (hasArg(argv, "-mmt1") || hasArg(argv, "-mmt=1")) {
		fig.Single = true
	}
	fig.MeanRatingMIPS = sum / float64(len(runs))
	f.SevenZip = fig
	return true
}

// hasArg reports whether an argument of argv (or a word of one, for
// `sh -c '7zz b -mmt1'`) equals want.
func hasArg(argv []string, want string) bool {
	for _, a := range argv {
		for _, w := range strings.Fields(a) {
			if w == want {
				return true
			}
		}
	}
	return false
}
