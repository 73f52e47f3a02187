package mdrow

import (
	"fmt"

	"boardbench/internal/result"
)

// ImportedRow returns the cells of the results-table row an imported log
// printed (result.ImportedSummary.ImportedRow), nil for any other result:
// an imported result's row is the one its log published, in the columns of
// its time.
func ImportedRow(r *result.Result) []string {
	if r == nil || r.Summary.ImportedSummary == nil || len(r.Summary.ImportedRow) == 0 {
		return nil
	}
	return r.Summary.ImportedRow
}

// fillFromImported fills kH/s from the cpuminer scores an imported log
// lists (their median, two decimals).
func fillFromImported(c *Columns, r *result.Result) {
	if r == nil || r.Summary.ImportedSummary == nil {
		return
	}
	if v := r.Summary.CPUMinerKHs; v != nil && c.KHs == Unknown {
		c.KHs = fmt.Sprintf("%.2f", *v)
	}
}
