package serve_test

import (
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"boardbench/internal/serve"
	"boardbench/internal/serve/page"
	"boardbench/internal/serve/servetest"

	"github.com/chromedp/chromedp"
)

// viewsStore holds 60 runs (every fourth tagged "lab"), imports, and
// newer results of other kinds: c2c results naming no board (which filled
// the first screen with "unknown" rows before the default kinds), storage,
// net, sweep and thermal results, and a run on an x86 server.
func viewsStore() *servetest.MemStore {
	m := servetest.Fill(60)
	for i := range 60 {
		m.AddOther("c2c", i)
	}
	for i := range 3 {
		m.AddOther("import", i)
	}
	for _, k := range []string{"storage", "net", "sweep", "thermal"} {
		m.AddOther(k, 100)
	}
	m.AddResult(servetest.XeonResult())
	return m
}

// TestBrowserDefaultTableKindsTags drives the table at 1400 px in
// headless Chromium: the first screen shows run and import results only
// (no "unknown" board), fits the window without sideways scrolling, with
// one-line distributions; the Kind filter selects storage results, whose
// page has its own tables; a tag link filters by the tag, and a tagged
// result's page shows its tags.
func TestBrowserDefaultTableKindsTags(t *testing.T) {
	b := newBrowser(t)
	dir := screenshotDir(t)
	srv := httptest.NewServer(serve.New(serve.Config{Store: viewsStore(), Charts: page.Charts}).Handler())
	defer srv.Close()
	ctx := b.ctx

	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#results"))); err != nil {
		t.Fatal(err)
	}
	b.shot(t, dir, "views-1-default-table")
	kinds := b.texts(t, "#results tbody tr td:nth-child(14)")
	if len(kinds) != serve.DefaultPageSize {
		t.Fatalf("first screen has %d rows, want %d", len(kinds), serve.DefaultPageSize)
	}
	for i, k := range kinds {
		if k != "run" && k != "import" {
			t.Errorf("row %d of the first screen is of kind %q", i+1, k)
		}
	}
	if !slices.Contains(kinds, "import") {
		t.Error("the imported results are not on the first screen")
	}
	for i, d := range b.texts(t, "#results tbody tr td:nth-child(2)") {
		if d == "unknown" || d == "" {
			t.Errorf("row %d of the first screen names no board", i+1)
		}
	}
	// At 1400 px nothing overflows sideways, the table fits its box, and
	// a distribution or a SoC takes one line, core types at most two.
	fit, err := chromedp.Run(ctx, chromedp.Evaluate[[]float64](`(() => {
		const d = document.documentElement, w = document.querySelector("div.tablewrap");
		const lines = sel => Math.max(...Array.from(document.querySelectorAll(sel)).map(td => {
			const r = document.createRange(); r.selectNodeContents(td);
			return new Set(Array.from(r.getClientRects()).map(x => Math.round(x.top))).size; }));
		return [window.innerWidth, d.scrollWidth, d.clientWidth, w.scrollWidth, w.clientWidth,
			lines("#results tbody td:nth-child(5)"), lines("#results tbody td:nth-child(11)"), lines("#results tbody td:nth-child(12)")]; })()`))
	if err != nil || len(fit) != 8 {
		t.Fatalf("measuring the table: %v %v", fit, err)
	}
	t.Logf("window %v px: page %v of %v, table box %v of %v; lines: distribution %v, SoC %v, core types %v", fit[0], fit[1], fit[2], fit[3], fit[4], fit[5], fit[6], fit[7])
	if fit[0] != 1400 {
		t.Errorf("window is %v px wide, want 1400", fit[0])
	}
	if fit[1] > fit[2] || fit[3] > fit[4] {
		t.Errorf("at 1400 px the page (%v > %v) or the table (%v > %v) overflows sideways", fit[1], fit[2], fit[3], fit[4])
	}
	if fit[5] > 1 || fit[6] > 1 || fit[7] > 2 {
		t.Errorf("cells wrap: distribution %v lines, SoC %v, core types %v", fit[5], fit[6], fit[7])
	}

	// The Kind filter: storage results only.
	storage, _ := servetest.OtherResult("storage", 100)
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(`select[name="kind"]`), "storage"), chromedp.Submit(chromedp.CSS(`form.filters`)),
		chromedp.WaitVisible(chromedp.CSS(`#results tr[data-id="`+storage.ID+`"]`))); err != nil {
		t.Fatal(err)
	}
	loc, _ := chromedp.Run(ctx, chromedp.Location())
	if !strings.Contains(loc, "kind=storage") {
		t.Errorf("filter URL %s lacks the kind", loc)
	}
	b.shot(t, dir, "views-2-kind-storage")
	if k := b.texts(t, "#results tbody tr td:nth-child(14)"); len(k) != 1 || k[0] != "storage" {
		t.Fatalf("kind=storage shows kinds %q, want the one storage result", k)
	}
	// Its page: the storage tables as HTML tables, no published row.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#results tbody tr:nth-child(1) td:nth-child(2) a`)), chromedp.WaitVisible(chromedp.CSS(`#storage-table`))); err != nil {
		t.Fatal(err)
	}
	b.shot(t, dir, "views-3-storage-result")
	if rows := b.texts(t, "#storage-table tbody tr"); len(rows) != 2 {
		t.Errorf("storage table has %d rows, want 2 (record sizes 4 and 16384 KiB)", len(rows))
	}
	if c := b.texts(t, "#storage-table tbody tr:nth-child(2) td:nth-child(4)"); len(c) != 1 || c[0] != "1500000" {
		t.Errorf("16384 KiB read cell = %q, want 1500000", c)
	}
	if h := b.texts(t, "#headline"); len(h) != 0 {
		t.Error("the storage result page shows the published row's table")
	}
	for _, id := range []string{"#storage-summary", "#storage-latency"} {
		if len(b.texts(t, id)) != 1 {
			t.Errorf("the storage result page lacks %s", id)
		}
	}

	// Tags: the "lab" link of a row filters the table by it.
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#results")),
		chromedp.Click(chromedp.CSS(`#results tbody td.tags a.tag`)), chromedp.WaitVisible(chromedp.CSS(`input[name="tag"][value="lab"]`))); err != nil {
		t.Fatal(err)
	}
	loc, _ = chromedp.Run(ctx, chromedp.Location())
	if !strings.Contains(loc, "tag=lab") {
		t.Errorf("tag link went to %s", loc)
	}
	b.shot(t, dir, "views-4-tag-lab")
	tags := b.texts(t, "#results tbody tr td:nth-child(16)")
	if len(tags) != 16 {
		t.Errorf("tag=lab shows %d rows, want 16 (every fourth of 60 runs, and the x86 run made from the first)", len(tags))
	}
	for _, s := range tags {
		if s != "lab" {
			t.Errorf("row tagged %q after filtering on lab", s)
		}
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#results tbody tr:nth-child(1) td:nth-child(2) a`)), chromedp.WaitVisible(chromedp.CSS(`#tags`))); err != nil {
		t.Fatal(err)
	}
	if s := b.texts(t, "#tags"); len(s) != 1 || s[0] != "tags: lab" {
		t.Errorf("result page tags = %q, want \"tags: lab\"", s)
	}
	b.check(t, "table, kinds and tags")
}

// TestBrowserCrossBoardCompare compares a Cortex-A76/A55 board with an
// x86 server: the per-core figures line up by role and the page says so.
func TestBrowserCrossBoardCompare(t *testing.T) {
	b := newBrowser(t)
	dir := screenshotDir(t)
	srv := httptest.NewServer(serve.New(serve.Config{Store: viewsStore(), Charts: page.Charts}).Handler())
	defer srv.Close()
	rk, _ := servetest.Result(0)
	xeon, _ := servetest.XeonResult()
	if err := chromedp.Do(b.ctx, chromedp.Navigate(srv.URL+"/compare?id="+rk.ID+"&id="+xeon.ID), chromedp.WaitVisible(chromedp.CSS("#compare"))); err != nil {
		t.Fatal(err)
	}
	b.shot(t, dir, "views-5-compare-cross-board")
	var aes []string
	for _, row := range b.texts(t, "#compare tr") {
		if strings.HasPrefix(row, "AES-256-CBC 16 KiB") {
			aes = append(aes, row)
		}
	}
	if len(aes) != 1 || !strings.Contains(aes[0], "fastest core type (Cortex-A76 | Xeon E5-2680 v4)") || !strings.Contains(aes[0], "(-73.7%)*") {
		t.Errorf("AES rows %q: want one row of the fastest core types, -73.7 %% marked", aes)
	}
	page, _ := chromedp.Run(b.ctx, chromedp.Evaluate[string](`document.body.innerText`))
	if !strings.Contains(page, "matched by role") {
		t.Error("the comparison does not say that per-core figures are matched by role")
	}
	b.check(t, "cross-board compare")
}
