package sbcimport

import "strings"

// isRow reports whether line is a results-table row: "| a | b | ... |" with
// at least nine cells (the oldest rows have nine columns).
func isRow(line string) bool {
	l := strings.TrimSpace(line)
	return strings.HasPrefix(l, "| ") && strings.HasSuffix(l, "|") && strings.Count(l, "|") >= 10
}

// rowCells returns a row's cells as printed between the separators, less
// the one space of padding on each side: a cell printed with more (an
// empty device name before " / CPU") keeps the rest, so that joining the
// cells with " | " gives the row back as printed.
func rowCells(line string) []string {
	cells := strings.Split(strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(line), "|"), "|"), "|")
	for k, c := range cells {
		c = strings.TrimPrefix(c, " ")
		c = strings.TrimSuffix(c, " ")
		if strings.TrimSpace(c) == "" {
			c = ""
		}
		cells[k] = c
	}
	return cells
}
