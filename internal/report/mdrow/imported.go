package mdrow

import (
	"fmt"
	"io"
	"strings"

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

// CurrentRow returns r's row in this table's current (ten-column) format:
// for an imported result, the row its log printed when the log printed one
// in this layout (see PrintedLayout), else the row derived from its figures
// (Compute). Unlike Row, an imported log's row of an older layout is not
// reproduced, and a clock printed in kHz is given in MHz.
func CurrentRow(r *result.Result) string {
	if cells := currentCells(r); cells != nil && ClockCellMHz(cells[1]) == cells[1] {
		return Row(r) // as printed, to the space
	}
	return Compute(r).String()
}

// CurrentTable is Table with every row in the current format (CurrentRow):
// the form `results export --format markdown` prints.
func CurrentTable(w io.Writer, rs []*result.Result, header bool) error {
	var b strings.Builder
	if header {
		b.WriteString(Header + "\n" + Separator + "\n")
	}
	for _, r := range rs {
		b.WriteString(CurrentRow(r) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}
