package page

import (
	"bytes"
	"strings"
	"testing"

	"boardbench/internal/serve/servetest"
)

// TestFigureTables: storage, net, sweep and thermal results get their own
// tables (real HTML tables, figures right-aligned) and no published row,
// whose CPU columns they never fill.
func TestFigureTables(t *testing.T) {
	for _, tc := range []struct {
		kind string
		ids  []string
		want []string
	}{
		{"storage", []string{"storage-summary", "storage-table", "storage-latency"}, []string{`<td class="num">1500000</td>`, `<td class="num">12000</td>`, `<td class="num">1536.0</td>`}},
		{"net", []string{"net-summary", "net-interfaces"}, []string{`<td class="num">941</td>`, "<td>end0</td>"}},
		{"sweep", []string{"sweep-table"}, []string{`<td class="num">9100</td>`, `<td class="num">1200</td>`, "<td>policy0</td>"}},
		{"thermal", []string{"thermal-table"}, []string{"212 s (clock below the top clock)", "1800 MHz", "-21.9 %"}},
	} {
		r, _ := servetest.OtherResult(tc.kind, 1)
		p := BuildResult(r, nil)
		if p.Headline != nil {
			t.Errorf("%s: a published row %v", tc.kind, p.Headline)
		}
		var b bytes.Buffer
		if err := WriteResult(&b, p); err != nil {
			t.Fatal(err)
		}
		html := b.String()
		if strings.Contains(html, `id="headline"`) {
			t.Errorf("%s: the page has the published row's table", tc.kind)
		}
		for _, id := range tc.ids {
			if !strings.Contains(html, `<table class="figures" id="`+id+`">`) {
				t.Errorf("%s: no table %s", tc.kind, id)
			}
		}
		for _, w := range tc.want {
			if !strings.Contains(html, w) {
				t.Errorf("%s: page lacks %q", tc.kind, w)
			}
		}
	}
	// A run keeps its published row and has no tables of its own.
	r, _ := servetest.Result(1)
	if p := BuildResult(r, nil); p.Headline == nil || len(p.Tables) != 0 {
		t.Errorf("run: headline %v, tables %d", p.Headline, len(p.Tables))
	}
}

// TestImportedMaker: an imported result's page names the tool that wrote
// the log and the boardbench that imported it.
func TestImportedMaker(t *testing.T) {
	r, _ := servetest.OtherResult("import", 1)
	r.Tool.Version = "0.1.0-dev"
	p := BuildResult(r, nil)
	if p.Maker != "sbc-bench 0.9.72" || p.Importer != "imported by boardbench 0.1.0-dev" {
		t.Errorf("maker %q, importer %q", p.Maker, p.Importer)
	}
	if !strings.Contains(p.Text, "sbc-bench 0.9.72 (imported by boardbench 0.1.0-dev") {
		t.Errorf("text report's tool line:\n%.600s", p.Text)
	}
}
