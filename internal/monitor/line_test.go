package monitor

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLegendFits: the legend above the live header names %cpu's meaning
// and fits in 100 columns a line.
func TestLegendFits(t *testing.T) {
	lines := strings.Split(Legend, "\n")
	if len(lines) != 2 || !strings.Contains(Legend, "%cpu: share of all cores' time") {
		t.Fatalf("legend = %q", Legend)
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("legend line of %d columns: %q", n, l)
		}
	}
}
