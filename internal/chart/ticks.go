package chart

import (
	"math"
	"strconv"
)

// maxLabels is the most labelled ticks an axis gets.
const maxLabels = 7

// linTicks marks [lo, hi] at round steps (1, 2 or 5 times a power of ten
// in the figure's unit), the finest step that gives at most maxLabels
// labelled ticks, labelled with as many decimals as the step needs (or
// by format), with an unlabelled tick halfway between. integer keeps to
// whole numbers.
func linTicks(lo, hi float64, format func(float64) string, integer bool) []tick {
	if !finite(lo) || !finite(hi) || hi <= lo {
		return nil
	}
	step, prec := niceStep(lo, hi)
	if integer {
		step, prec = max(1, math.Round(step)), 0
	}
	eps := step * 1e-9
	half := step / 2
	if integer && step == 1 {
		half = 1
	}
	var ticks []tick
	for k := math.Ceil((lo-eps)/half) * half; k <= hi+eps; k += half {
		v := k
		if math.Abs(v) < eps {
			v = 0
		}
		if r := math.Round(v / step); math.Abs(v-r*step) < eps {
			v = r * step
			label := strconv.FormatFloat(v, 'f', prec, 64)
			if format != nil {
				label = format(v)
			}
			ticks = append(ticks, tick{v: v, label: label})
		} else {
			ticks = append(ticks, tick{v: v})
		}
	}
	return ticks
}

// niceStep returns the finest of 1, 2 and 5 times a power of ten that
// marks [lo, hi] with at most maxLabels ticks, and the decimals its labels
// need.
func niceStep(lo, hi float64) (step float64, prec int) {
	if !(hi > lo) {
		return 1, 0
	}
	exp := math.Floor(math.Log10((hi - lo) / maxLabels))
	for ; ; exp++ {
		base := math.Pow(10, exp)
		for _, m := range []float64{1, 2, 5} {
			step = m * base
			eps := step * 1e-9
			if math.Floor((hi+eps)/step)-math.Ceil((lo-eps)/step)+1 <= maxLabels {
				return step, max(0, int(-exp))
			}
		}
	}
}

// logTicks marks a log axis [lo, hi]: at powers of two (base2: every
// power, labelled every k-th so that at most maxLabels+1 are labelled), or
// at 1, 2 and 5 times powers of ten, all labelled when few, else the
// powers of ten labelled and the 2s and 5s unlabelled.
func logTicks(lo, hi float64, base2 bool, format func(float64) string) []tick {
	if !(lo > 0) || !(hi > lo) {
		return nil
	}
	label := func(v float64) string {
		if format != nil {
			return format(v)
		}
		return trimNum(v)
	}
	var ticks []tick
	if base2 {
		e0, e1 := int(math.Ceil(math.Log2(lo)-1e-9)), int(math.Floor(math.Log2(hi)+1e-9))
		// Label every k-th power, k from 1, 2, 5, 10 (so that 1 KiB,
		// 1 MiB and 1 GiB stay labelled), at most maxLabels+1 labels.
		n := e1 - e0 + 1
		k := 1
		for _, c := range []int{1, 2, 5, 10, 20} {
			k = c
			if (n+c-1)/c <= maxLabels+1 {
				break
			}
		}
		for e := e0; e <= e1; e++ {
			v := math.Pow(2, float64(e))
			t := tick{v: v}
			// Labels on a grid of k that keeps the powers of 1024.
			if ((e%k)+k)%k == 0 {
				t.label = label(v)
			}
			ticks = append(ticks, t)
		}
		return ticks
	}
	var all []float64
	d0, d1 := int(math.Floor(math.Log10(lo))), int(math.Ceil(math.Log10(hi)))
	for d := d0; d <= d1; d++ {
		for _, m := range []float64{1, 2, 5} {
			v := m * math.Pow(10, float64(d))
			if v >= lo*(1-1e-9) && v <= hi*(1+1e-9) {
				all = append(all, v)
			}
		}
	}
	labelAll := len(all) <= maxLabels+1
	decades := 0
	for _, v := range all {
		if isPow10(v) {
			decades++
		}
	}
	k := max(1, (decades+maxLabels)/(maxLabels+1))
	nth := 0
	for _, v := range all {
		t := tick{v: v}
		switch {
		case labelAll:
			t.label = label(v)
		case isPow10(v):
			if nth%k == 0 {
				t.label = label(v)
			}
			nth++
		}
		ticks = append(ticks, t)
	}
	return ticks
}

func isPow10(v float64) bool {
	l := math.Log10(v)
	return math.Abs(l-math.Round(l)) < 1e-9
}

// trimNum writes v with the decimals it needs (at most 6 significant
// digits).
func trimNum(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// bytesLabel labels a size in bytes with binary units: "512 B", "32 KiB",
// "1 MiB", "1.5 GiB".
func bytesLabel(v float64) string {
	for _, u := range []struct {
		s string
		n float64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if v >= u.n {
			return trimNum(math.Round(v/u.n*100)/100) + " " + u.s
		}
	}
	return trimNum(v) + " B"
}
