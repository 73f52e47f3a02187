// Package stats summarises repeated measurement samples: median, spread and
// sample standard deviation, as benchmark users expect them reported.
package stats

import (
	"math"
	"sort"
)

// Summary describes a set of samples. Samples keeps the raw values in the
// order they were taken.
type Summary struct {
	N      int     `json:"n"`
	Median float64 `json:"median"`
	Mean   float64 `json:"mean"`
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
	// StdDev is the sample standard deviation (n-1); 0 for fewer than 2 samples.
	StdDev float64 `json:"stddev"`
	// RelStdDevPct is StdDev as a percentage of Mean; 0 when Mean is 0.
	RelStdDevPct float64   `json:"rel_stddev_pct"`
	Samples      []float64 `json:"samples"`
}

// Summarize computes a Summary of xs; the zero Summary for no samples. NaN
// and infinite samples are dropped.
func Summarize(xs []float64) Summary {
	clean := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			clean = append(clean, x)
		}
	}
	s := Summary{N: len(clean), Samples: clean}
	if len(clean) == 0 {
		return s
	}
	sorted := append([]float64(nil), clean...)
	sort.Float64s(sorted)
	s.Min, s.Max = sorted[0], sorted[len(sorted)-1]
	s.Median = median(sorted)
	var sum float64
	for _, x := range clean {
		sum += x
	}
	s.Mean = sum / float64(len(clean))
	if len(clean) > 1 {
		var ss float64
		for _, x := range clean {
			d := x - s.Mean
			ss += d * d
		}
		s.StdDev = math.Sqrt(ss / float64(len(clean)-1))
		if s.Mean != 0 {
			s.RelStdDevPct = 100 * s.StdDev / math.Abs(s.Mean)
		}
	}
	return s
}

func median(sorted []float64) float64 {
	n := len(sorted)
	if n%2 == 1 {
		return sorted[n/2]
	}
	return (sorted[n/2-1] + sorted[n/2]) / 2
}

// Median returns the median of xs, or NaN for none.
func Median(xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return Summarize(xs).Median
}

// DeviationPct returns how far measured is from reference, in percent of the
// reference; NaN when reference is 0.
func DeviationPct(measured, reference float64) float64 {
	if reference == 0 {
		return math.NaN()
	}
	return 100 * (measured - reference) / reference
}
