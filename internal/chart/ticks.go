package chart

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// maxLabels is the most labelled ticks an axis gets.
const maxLabels = 7

// niceTicks marks an axis at round steps (1, 2 or 5 times a power of ten),
// the finest step that gives at most maxLabels labelled ticks, labelled
// with as many decimals as the step needs, and an unlabelled tick halfway
// between.
type niceTicks struct{}

// Ticks implements plot.Ticker.
func (niceTicks) Ticks(lo, hi float64) []plot.Tick {
	if !finite(lo) || !finite(hi) || hi <= lo {
		return plot.DefaultTicks{}.Ticks(lo, hi)
	}
	step, prec := niceStep(lo, hi)
	eps := step * 1e-9
	var ticks []plot.Tick
	for k := math.Ceil((lo-eps)/(step/2)) * step / 2; k <= hi+eps; k += step / 2 {
		v := k
		if math.Abs(v) < eps {
			v = 0
		}
		if r := math.Round(v / step); math.Abs(v-r*step) < eps {
			ticks = append(ticks, plot.Tick{Value: r * step, Label: strconv.FormatFloat(r*step, 'f', prec, 64)})
		} else {
			ticks = append(ticks, plot.Tick{Value: v})
		}
	}
	return ticks
}

// niceStep returns the finest of 1, 2 and 5 times a power of ten that
// marks [lo, hi] with at most maxLabels ticks, and the decimals its labels
// need.
func niceStep(lo, hi float64) (step float64, prec int) {
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
