package memlat

import "fmt"

// Level is one cache level as the latency curve shows it.
type Level struct {
	// SizeBytes is the largest block that still fit the level: the block
	// size just before the step up. Blocks are powers of two, so the true
	// size lies between SizeBytes and twice that.
	SizeBytes int64 `json:"size_bytes"`
	// LatencyNS is the latency measured at SizeBytes, in nanoseconds.
	LatencyNS float64 `json:"latency_ns"`
	// StepRatio is how much slower the next block size was (1.5 = 50 %).
	StepRatio float64 `json:"step_ratio"`
}

// Curve is what the latency curve says about the memory hierarchy.
type Curve struct {
	// Levels are the steps the curve shows, smallest first.
	Levels []Level `json:"levels"`
	// LargestBytes and LargestNS are the largest block and its latency.
	LargestBytes int64   `json:"largest_bytes"`
	LargestNS    float64 `json:"largest_ns"`
	// StillRising is true when the latency still rose by a step at the
	// largest block: the last level is not reached yet, or more blocks are
	// needed to see main memory's latency.
	StillRising bool `json:"still_rising"`
}

// Step thresholds. A step is where the latency rises from one block size
// to the next (twice as large) by more than StepMin (40 %) and by more than
// StepMinNS; the ratio is taken on latency + StepMinNS so that tables
// relative to the L1 latency (which start at 0.0 ns) and sub-nanosecond
// noise make no false steps. Where several consecutive sizes rise that much
// (a transition spread over sizes), the step is at the steepest rise.
const (
	StepMin   = 1.4
	StepMinNS = 1.0
)

// DetectLevels finds the steps of a latency curve. sizes must be ascending
// and parallel to ns (nanoseconds per access, absolute or relative to the L1
// latency). Points with a negative or NaN latency are ignored.
func DetectLevels(sizes []int64, ns []float64) Curve {
	type pt struct {
		size int64
		ns   float64
	}
	var pts []pt
	for i := range min(len(sizes), len(ns)) {
		if ns[i] >= 0 { // also drops NaN
			pts = append(pts, pt{sizes[i], ns[i]})
		}
	}
	var c Curve
	if len(pts) == 0 {
		return c
	}
	last := pts[len(pts)-1]
	c.LargestBytes, c.LargestNS = last.size, last.ns
	// ratio[i] compares point i with point i-1; 0 where it is no step.
	ratio := make([]float64, len(pts)+1)
	for i := 1; i < len(pts); i++ {
		r := (pts[i].ns + StepMinNS) / (pts[i-1].ns + StepMinNS)
		if r > StepMin && pts[i].ns-pts[i-1].ns > StepMinNS {
			ratio[i] = r
		}
	}
	for i := 1; i < len(pts); i++ {
		if ratio[i] > 0 && ratio[i] > ratio[i-1] && ratio[i] >= ratio[i+1] {
			c.Levels = append(c.Levels, Level{SizeBytes: pts[i-1].size, LatencyNS: pts[i-1].ns, StepRatio: ratio[i]})
		}
	}
	c.StillRising = len(pts) > 1 && ratio[len(pts)-1] > 0
	return c
}

// Analysis is the cache structure a measured Result shows, matched with the
// caches sysfs reports.
type Analysis struct {
	Levels      []CacheLevel
	StillRising bool
	// FromHugePages is true when the curve on huge pages was used: it shows
	// cache steps without TLB misses mixed in.
	FromHugePages bool
	// HugePagesShort is set when huge pages were asked for but less than half
	// the buffer got them (then the normal-page curve is used); it says how
	// much did, e.g. "only about 12 of 64 MiB were huge pages".
	HugePagesShort string
	// Sizes are the block sizes of the curve used, ascending.
	Sizes []int64
}

// Analyze derives the cache levels of res: from the huge-page curve when the
// system really gave the buffer huge pages, else from the normal-page curve,
// then matches them with the sysfs caches.
func Analyze(res Result, caches []SysfsCache) Analysis {
	var a Analysis
	a.FromHugePages = res.HugePages != nil
	if hp := res.HugePages; hp != nil && hp.AnonHugeDeltaBytes != nil && *hp.AnonHugeDeltaBytes < hp.BufferBytes/2 {
		a.FromHugePages = false
		a.HugePagesShort = fmt.Sprintf("only about %d of %d MiB were huge pages", *hp.AnonHugeDeltaBytes>>20, hp.BufferBytes>>20)
	}
	ns := make([]float64, 0, len(res.Points))
	for _, pt := range res.Points {
		v := pt.NS
		if a.FromHugePages {
			v = pt.NSHugePage
		}
		if v != nil {
			a.Sizes = append(a.Sizes, pt.SizeBytes)
			ns = append(ns, *v)
		}
	}
	curve := DetectLevels(a.Sizes, ns)
	a.Levels = Match(curve.Levels, caches)
	a.StillRising = curve.StillRising
	return a
}
