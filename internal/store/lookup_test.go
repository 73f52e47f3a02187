package store

import (
	"slices"
	"testing"
)

func TestSortColumn(t *testing.T) {
	for _, tc := range []struct {
		name, col string
		ok        bool
	}{
		{"created_at", "r.created_at", true},
		{"board", "r.board", true},
		{"core_types", "r.core_types", true},
		{"id", "r.id", true},
		{"sevenzip_multi_mips", "", false},
		{"r.board", "", false},
		{"board; DROP TABLE results", "", false},
		{"", "", false},
	} {
		if col, ok := sortColumn(tc.name); col != tc.col || ok != tc.ok {
			t.Errorf("sortColumn(%q) = %q, %v; want %q, %v", tc.name, col, ok, tc.col, tc.ok)
		}
	}
	cols := SortColumns()
	if len(cols) != 12 || !slices.Contains(cols, "valid") {
		t.Errorf("SortColumns() = %v", cols)
	}
	cols[0] = "changed"
	if _, ok := sortColumn("created_at"); !ok {
		t.Error("changing SortColumns' slice changed the columns")
	}
}

func TestNotFigure(t *testing.T) {
	for _, tc := range []struct {
		member string
		want   bool
	}{
		{"excluded_figures", true},
		{"headline_notes", true},
		{"sevenzip_multi_mips", false},
		{"", false},
	} {
		if got := notFigure(tc.member); got != tc.want {
			t.Errorf("notFigure(%q) = %v, want %v", tc.member, got, tc.want)
		}
	}
}
