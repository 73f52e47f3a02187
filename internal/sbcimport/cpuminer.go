package sbcimport

import (
	"cmp"
	"slices"
)

// cpuminerFigure is the hash rate the log's row shows from cpuminer's total
// scores ("Total Scores: a,b,..." printed highest first): the second
// highest, which leaves out the first, often too high, reading; the only
// one when there is one; nil without scores.
func cpuminerFigure(scores []float64) *float64 {
	if len(scores) == 0 {
		return nil
	}
	sorted := slices.SortedFunc(slices.Values(scores), func(a, b float64) int { return cmp.Compare(b, a) })
	v := sorted[min(1, len(sorted)-1)]
	return &v
}
