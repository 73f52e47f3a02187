package sbcimport

import "strings"

// isRow reports whether line is a results-table row: "| a | b | ... |" with
// at least nine cells (the oldest rows have nine columns).
func isRow(line string) bool {
	l := strings.TrimSpace(line)
	return strings.HasPrefix(l, "| ") && strings.HasSuffix(l, "|") && strings.Count(l, "|") >= 10
}

// rowCells returns a row's cells, trimmed.
func rowCells(line string) []string {
	cells := strings.Split(strings.Trim(strings.TrimSpace(line), "|"), "|")
	for k := range cells {
		cells[k] = strings.TrimSpace(cells[k])
	}
	return cells
}
