package mdrow

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"boardbench/internal/lazyre"
	"boardbench/internal/result"
)

// ColumnNames names the columns of the table's current layout, as its header
// names them.
var ColumnNames = []string{"Device / details", "Clockspeed", "Kernel", "Distro", "7-zip multi", "7-zip single", "AES", "memcpy", "memset", "kH/s"}

// OldColumnNames are the columns of the rows the bash tool printed from
// version 0.9.0 until a 0.9.9 build of 23 October 2022: as many cells as
// today, but AES-128 on 16-byte blocks where 7-zip single stands now.
var OldColumnNames = []string{"Device / details", "Clockspeed", "Kernel", "Distro", "7-zip", "AES-128 (16 byte)", "AES-256 (16 KB)", "memcpy", "memset", "kH/s"}

// LinkColumnNames are the columns of the rows of the 0.8 versions: the old
// columns and an empty link ("[]()").
var LinkColumnNames = []string{"Device / details", "Clockspeed", "Kernel", "Distro", "7-zip", "AES-128 (16 byte)", "AES-256 (16 KB)", "memcpy", "memset", "kH/s", "link"}

// currentLayoutSince is when the bash tool's row replaced AES-128 with
// 7-zip single (a 0.9.9 development build of 23 October 2022; the logs of
// 0.9.9 carry their run's date in the first line).
func currentLayoutSince() time.Time { return time.Date(2022, 10, 23, 0, 0, 0, 0, time.UTC) }

// PrintedLayout returns the columns of the row a log of the bash tool's
// version (the first line's "0.9.72") printed, from the version and, for
// 0.9.9, the run's date; nil when that version printed no row or its
// layout is not known (no version, a 0.9.9 log without a date).
func PrintedLayout(version string, started time.Time) []string {
	var a, b, c int
	n, _ := fmt.Sscanf(version, "%d.%d.%d", &a, &b, &c)
	switch {
	case n < 2 || a != 0:
		return nil
	case b == 8:
		return LinkColumnNames
	case b != 9:
		return nil
	case n == 2 || c <= 8:
		return OldColumnNames
	case c > 9:
		return ColumnNames
	case started.IsZero():
		return nil
	case started.Before(currentLayoutSince()):
		return OldColumnNames
	}
	return ColumnNames
}

// importedLayout returns the columns of an imported log's printed row: as
// the import recorded them, else (results imported before they were) as
// PrintedLayout finds them.
func importedLayout(r *result.Result) []string {
	if r.Summary.ImportedSummary == nil {
		return nil
	}
	if cols := r.Summary.ImportedRowColumns; len(cols) > 0 {
		return cols
	}
	return PrintedLayout(r.Summary.ImportedFormatVersion, r.StartedAt)
}

// currentCells returns the cells of the row an imported log printed when
// that row is in the table's current layout, else nil.
func currentCells(r *result.Result) []string {
	cells := ImportedRow(r)
	if len(cells) != len(ColumnNames) || !slices.Equal(importedLayout(r), ColumnNames) {
		return nil
	}
	return cells
}

// reKHzAsMHz finds a clock the bash tool printed in kHz under a MHz label
// (early 0.9.9 builds and some 0.9.x logs: "2361600/1900800 MHz").
var reKHzAsMHz = lazyre.Regexp(`\d+`)

// ClockCellMHz returns a printed Clockspeed cell with the clocks that can
// only be kHz (100000 or more: no CPU runs at 100 GHz) turned into whole
// MHz ("2361600/1900800 MHz" → "2361/1900 MHz", truncated as the table
// truncates the cpufreq maxima); other cells as they are.
func ClockCellMHz(cell string) string {
	if !strings.Contains(cell, "MHz") {
		return cell
	}
	return reKHzAsMHz.ReplaceAllStringFunc(cell, func(s string) string {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v < 100000 {
			return s
		}
		return strconv.FormatInt(v/1000, 10)
	})
}
