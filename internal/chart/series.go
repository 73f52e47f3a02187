package chart

import (
	"math"
	"sort"
)

// tpoint is one reading of a time series: its time in seconds, its value
// and the block it came from (a phase's monitor samples, a block of
// monitor lines of an imported log), whose own sampling interval tells a
// gap from the next reading.
type tpoint struct {
	t, v  float64
	block int
}

// GapFactor is how many sampling intervals may pass between two readings
// before they are no longer joined: a longer pause (monitoring stopped
// between two benchmarks, a log's blocks apart) breaks the line.
const GapFactor = 3

// timeSegments sorts the readings by time, keeps one reading per time
// (the first; an imported log repeats its last line in a summary), moves
// the time so that origin is 0 and cuts the line where two readings are
// more than GapFactor sampling intervals apart. A block's interval is the
// median of its own intervals; a block of one reading takes the series'
// median.
func timeSegments(ps []tpoint, origin float64) [][]pt {
	if len(ps) == 0 {
		return nil
	}
	sort.SliceStable(ps, func(i, j int) bool { return ps[i].t < ps[j].t })
	uniq := ps[:0:0]
	for i, p := range ps {
		if i > 0 && p.t == ps[i-1].t {
			continue
		}
		uniq = append(uniq, p)
	}
	// The interval of each block and of the whole series.
	byBlock := map[int][]float64{}
	last := map[int]float64{}
	var all []float64
	for i, p := range uniq {
		if t, ok := last[p.block]; ok {
			byBlock[p.block] = append(byBlock[p.block], p.t-t)
		}
		last[p.block] = p.t
		if i > 0 {
			all = append(all, p.t-uniq[i-1].t)
		}
	}
	overall := median(all)
	intervals := make(map[int]float64, len(byBlock))
	for b, ds := range byBlock {
		intervals[b] = median(ds)
	}
	interval := func(block int) float64 {
		if v, ok := intervals[block]; ok {
			return v
		}
		return overall
	}
	var segs [][]pt
	var cur []pt
	for i, p := range uniq {
		if i > 0 {
			prev := uniq[i-1]
			limit := GapFactor * max(interval(prev.block), interval(p.block))
			if limit > 0 && p.t-prev.t > limit {
				segs = append(segs, cur)
				cur = nil
			}
		}
		cur = append(cur, pt{X: p.t - origin, Y: p.v})
	}
	return append(segs, cur)
}

func median(vs []float64) float64 {
	if len(vs) == 0 {
		return 0
	}
	s := append([]float64(nil), vs...)
	sort.Float64s(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// bounded reduces a line to at most MaxPoints points over all its
// segments (downsample on each, in proportion to its length).
func bounded(segs [][]pt) [][]pt {
	total := 0
	for _, s := range segs {
		total += len(s)
	}
	if total <= MaxPoints {
		return segs
	}
	out := make([][]pt, 0, len(segs))
	for _, s := range segs {
		limit := max(2, MaxPoints*len(s)/total)
		out = append(out, downsample(s, limit))
	}
	return out
}

// runs turns flags at the readings' times (sorted) into shaded spans: a
// run of flagged readings is shaded from half an interval before its first
// to half an interval after its last, bounded by the neighbouring
// readings.
func runs(times []float64, flagged []bool) []span {
	var out []span
	n := len(times)
	for i := 0; i < n; i++ {
		if !flagged[i] {
			continue
		}
		j := i
		for j+1 < n && flagged[j+1] {
			j++
		}
		x0, x1 := times[i], times[j]
		if i > 0 {
			x0 -= (times[i] - times[i-1]) / 2
		}
		if j+1 < n {
			x1 += (times[j+1] - times[j]) / 2
		}
		if x1 == x0 {
			x1 = x0 + 0.5
			x0 -= 0.5
		}
		out = append(out, span{X0: math.Max(x0, 0), X1: x1})
		i = j
	}
	return mergeSpans(out, MaxSpans)
}

// MaxSpans is about the most shaded spans a chart draws: spans closer
// than 1/MaxSpans of the time shown are drawn as one, as no screen tells
// them apart.
const MaxSpans = 200

// mergeSpans joins spans (in order) whose gap is less than 1/limit of the
// range they cover.
func mergeSpans(ss []span, limit int) []span {
	if len(ss) < 2 {
		return ss
	}
	minGap := (ss[len(ss)-1].X1 - ss[0].X0) / float64(limit)
	out := []span{ss[0]}
	for _, s := range ss[1:] {
		last := &out[len(out)-1]
		if s.X0-last.X1 < minGap {
			last.X1 = math.Max(last.X1, s.X1)
			continue
		}
		out = append(out, s)
	}
	return out
}
