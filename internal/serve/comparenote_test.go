package serve

import (
	"bytes"
	"strings"
	"testing"

	"boardbench/internal/compare"
	"boardbench/internal/inventory"
	"boardbench/internal/result"
	"boardbench/internal/serve/page"
)

// TestComparePageQuickNote: the compare page says, above its table, what
// `compare` says of a quick result set beside a standard one.
func TestComparePageQuickNote(t *testing.T) {
	mk := func(id string, quick bool) compare.Input {
		r := result.New("run", &inventory.Info{}, map[string]any{})
		r.ID, r.Status, r.Quick = id, result.StatusComplete, quick
		r.Summary = result.BuildSummary(nil)
		return compare.Input{Label: id, Result: r}
	}
	for _, tt := range []struct {
		name     string
		in       []compare.Input
		wantNote bool
	}{
		{"quick beside standard", []compare.Input{mk("a1", false), mk("b2", true)}, true},
		{"two standard", []compare.Input{mk("a1", false), mk("b2", false)}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmp, err := compare.Compare(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			var b bytes.Buffer
			if err := page.WriteCompare(&b, BuildCompare(cmp)); err != nil {
				t.Fatal(err)
			}
			html := b.String()
			i, j := strings.Index(html, `class="sev-warning compare-note">Note: b2 is a result of a quick mode`), strings.Index(html, `<table id="compare">`)
			if got := i >= 0; got != tt.wantNote || got && i > j {
				t.Errorf("quick note at %d, table at %d, want a note %v above the table:\n%s", i, j, tt.wantNote, html)
			}
		})
	}
}
