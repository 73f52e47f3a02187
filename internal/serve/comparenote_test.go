package serve

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"boardbench/internal/compare"
	"boardbench/internal/inventory"
	"boardbench/internal/result"
	"boardbench/internal/serve/page"
	"boardbench/internal/serve/servetest"
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

// TestTableMarksQuickResults: the results table marks a quick result, and
// only it, beside the standard ones.
func TestTableMarksQuickResults(t *testing.T) {
	m := servetest.NewMemStore()
	for i := range 2 {
		r, rec := servetest.Result(i)
		r.Quick, rec.Quick = i == 1, i == 1
		doc, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		m.Add(rec, doc)
	}
	body := get(t, New(Config{Store: m}).Handler(), "/").Body.String()
	if !strings.Contains(body, `data-id="00000000000000000000000000000002"`) || !strings.Contains(body, `title="a quick result`) {
		t.Fatalf("no quick row, or no marker:\n%s", body)
	}
	for _, row := range strings.Split(body, "<tr")[1:] {
		quick := strings.Contains(row, `data-id="00000000000000000000000000000002"`)
		if got := strings.Contains(row, `title="a quick result`); got != quick {
			t.Errorf("quick marker %v on the row (want %v):\n%s", got, quick, row)
		}
	}
}
