package result

import (
	"math"
	"slices"
)

// Phases of `boardbench mem --throttle-test` (schema 1.3): the bandwidth
// of all CPUs before a long memory load, the load itself, and the same
// bandwidth after it. Before and after hold MemAllCoresFigures, the load
// MemLoadFigures.
const (
	PhaseMemThrottleBefore = "memory-throttle-before"
	PhaseMemThrottleLoad   = "memory-throttle-load"
	PhaseMemThrottleAfter  = "memory-throttle-after"
)

// MemThrottleKernels are the bandwidth kernels measured before and after
// the load, by their figure names ("memcpy", "memset", "read").
var MemThrottleKernels = []string{"memcpy", "memset", "read"}

// MemLoadFigures are the figures of the memory-throttle-load phase: all
// CPUs copying memory (memcpy over buffers well beyond the caches) for
// the load's duration, with the bandwidth of each stretch of it.
type MemLoadFigures struct {
	CPUs []int `json:"cpus"`
	// Kernel is the load's kernel ("memcpy").
	Kernel string `json:"kernel"`
	// SliceBytes is each CPU's share of each buffer.
	SliceBytes int64 `json:"slice_bytes"`
	// RequestedS is the load's requested duration, DurationS how long it
	// ran (shorter when interrupted).
	RequestedS float64 `json:"requested_s"`
	DurationS  float64 `json:"duration_s"`
	// Series is the bandwidth of each stretch, in order.
	Series []MemLoadPoint `json:"series"`
	// FirstMBs and LastMBs are the median bandwidth of the first and the
	// last fifth of the series (at least one point each); nil without
	// points.
	FirstMBs *float64 `json:"first_mb_s"`
	LastMBs  *float64 `json:"last_mb_s"`
	// Notes say what could not be measured and why.
	Notes []string `json:"notes,omitempty"`
}

// MemLoadPoint is the bandwidth of one stretch of the load: TS seconds
// after the load began (its end), MBs in MB/s (10^6 B/s).
type MemLoadPoint struct {
	TS  float64 `json:"t_s"`
	MBs float64 `json:"mb_s"`
}

// FirstLast fills FirstMBs and LastMBs from the series.
func (f *MemLoadFigures) FirstLast() {
	n := len(f.Series)
	if n == 0 {
		f.FirstMBs, f.LastMBs = nil, nil
		return
	}
	k := max(1, n/5)
	med := func(pts []MemLoadPoint) *float64 {
		v := make([]float64, len(pts))
		for i, p := range pts {
			v[i] = p.MBs
		}
		slices.Sort(v)
		m := v[len(v)/2]
		if len(v)%2 == 0 {
			m = (v[len(v)/2-1] + v[len(v)/2]) / 2
		}
		m = math.Round(m*10) / 10
		return &m
	}
	f.FirstMBs, f.LastMBs = med(f.Series[:k]), med(f.Series[n-k:])
}

// MemKernelChange compares one kernel's bandwidth before and after the
// load.
type MemKernelChange struct {
	Kernel string `json:"kernel"`
	// BeforeMBs and AfterMBs are the medians; ChangePct is after against
	// before in percent.
	BeforeMBs float64 `json:"before_mb_s"`
	AfterMBs  float64 `json:"after_mb_s"`
	ChangePct float64 `json:"change_pct"`
	// BeforeSpreadPct and AfterSpreadPct are the samples' relative
	// standard deviations, the measurement's own spread.
	BeforeSpreadPct float64 `json:"before_spread_pct"`
	AfterSpreadPct  float64 `json:"after_spread_pct"`
	// Separated is true when every after sample lies below every before
	// sample.
	Separated bool `json:"separated"`
}

// CompareMemThrottle compares the kernels measured both before and after
// (MemThrottleKernels, in that order); a kernel missing on either side
// is left out.
func CompareMemThrottle(before, after *MemAllCoresFigures) []MemKernelChange {
	out := []MemKernelChange{}
	if before == nil || after == nil {
		return out
	}
	for _, k := range MemThrottleKernels {
		b, okB := before.Samples[k+"_mb_s"]
		a, okA := after.Samples[k+"_mb_s"]
		if !okB || !okA || len(b.MBs) == 0 || len(a.MBs) == 0 || b.Median <= 0 {
			continue
		}
		out = append(out, MemKernelChange{
			Kernel: k, BeforeMBs: round1(b.Median), AfterMBs: round1(a.Median),
			ChangePct:       math.Round((a.Median/b.Median-1)*1000) / 10,
			BeforeSpreadPct: math.Round(b.RelStdDevPct*100) / 100, AfterSpreadPct: math.Round(a.RelStdDevPct*100) / 100,
			Separated: slices.Max(a.MBs) < slices.Min(b.MBs),
		})
	}
	return out
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }
