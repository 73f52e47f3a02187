package serve_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	importcmd "boardbench/internal/cmd/import"
	"boardbench/internal/serve"
	"boardbench/internal/serve/page"
	"boardbench/internal/serve/servetest"
	"boardbench/internal/store"
	"boardbench/internal/testutil/need"
	"boardbench/internal/testutil/shareddata"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// screenshotDir is where the browser tests leave their screenshots:
// $BOARDBENCH_SCREENSHOTS, else a temporary directory.
func screenshotDir(t *testing.T) string {
	if d := os.Getenv("BOARDBENCH_SCREENSHOTS"); d != "" {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
		return d
	}
	return t.TempDir()
}

// browser starts headless Chromium and collects console errors and
// failed requests.
type browser struct {
	ctx      context.Context
	mu       sync.Mutex
	problems []string
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	bin := ""
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			bin = p
			break
		}
	}
	if bin == "" {
		need.Missing(t, "chromium not installed (Debian package chromium)")
		t.SkipNow()
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:], chromedp.ExecPath(bin), chromedp.NoSandbox,
		chromedp.WindowSize(1400, 1000), chromedp.Flag("disable-gpu", true))
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelC := chromedp.NewContext(actx)
	ctx, cancelT := context.WithTimeout(ctx, 2*time.Minute)
	t.Cleanup(func() { cancelT(); cancelC(); cancelA() })
	b := &browser{ctx: ctx}
	err := chromedp.Listen(ctx, func(ev any) {
		b.mu.Lock()
		defer b.mu.Unlock()
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				b.problems = append(b.problems, fmt.Sprintf("console %s: %v", e.Type, e.Args))
			}
		case *cdplog.EventEntryAdded:
			if e.Entry.Level == cdplog.EntryLevelError || e.Entry.Level == cdplog.EntryLevelWarning {
				b.problems = append(b.problems, fmt.Sprintf("log %s: %s %s", e.Entry.Level, e.Entry.Text, e.Entry.URL))
			}
		case *runtime.EventExceptionThrown:
			b.problems = append(b.problems, "exception: "+e.ExceptionDetails.Text)
		case *network.EventLoadingFailed:
			b.problems = append(b.problems, "request failed: "+e.ErrorText)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func (b *browser) check(t *testing.T, where string) {
	t.Helper()
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, p := range b.problems {
		t.Errorf("%s: %s", where, p)
	}
	b.problems = nil
}

func (b *browser) shot(t *testing.T, dir, name string) {
	t.Helper()
	png, err := chromedp.Run(b.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

func (b *browser) texts(t *testing.T, sel string) []string {
	t.Helper()
	out, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](fmt.Sprintf(`Array.from(document.querySelectorAll(%q)).map(e => e.textContent.trim())`, sel)))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestBrowserTableResultCompare drives the web view in headless Chromium:
// sort by 7-Zip multi, filter by SoC, open a result and a comparison.
func TestBrowserTableResultCompare(t *testing.T) {
	b := newBrowser(t)
	dir := screenshotDir(t)
	srv := httptest.NewServer(serve.New(serve.Config{Store: servetest.Fill(200), Charts: page.Charts}).Handler())
	defer srv.Close()
	ctx := b.ctx

	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#results"))); err != nil {
		t.Fatal(err)
	}
	b.shot(t, dir, "1-table")
	if n := len(b.texts(t, "#results tbody tr")); n != serve.DefaultPageSize {
		t.Errorf("first page has %d rows, want %d", n, serve.DefaultPageSize)
	}

	// Sort: the 7-Zip multi header link (largest first).
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`th a[data-key="7zip-multi"]`)), chromedp.WaitVisible(chromedp.CSS(`th a.sorted[data-key="7zip-multi"]`))); err != nil {
		t.Fatal(err)
	}
	b.shot(t, dir, "2-sorted-7zip-multi")
	vals := b.texts(t, "#results tbody tr td:nth-child(6)")
	if len(vals) == 0 {
		t.Fatal("no rows after sorting")
	}
	prev := 1e18
	for i, v := range vals {
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f > prev {
			t.Fatalf("row %d 7-Zip multi %q after %v: not in descending order", i, v, prev)
		}
		prev = f
	}

	// Filter: pick a SoC in the form's menu and submit it.
	const soc = "Broadcom BCM2712"
	if err := chromedp.Do(ctx, chromedp.SetValue(chromedp.CSS(`select[name="soc"]`), soc), chromedp.Submit(chromedp.CSS(`form.filters`)),
		chromedp.WaitVisible(chromedp.CSS(`#results`))); err != nil {
		t.Fatal(err)
	}
	loc, _ := chromedp.Run(ctx, chromedp.Location())
	if !strings.Contains(loc, "soc=Broadcom+BCM2712") || !strings.Contains(loc, "sort=7zip-multi") {
		t.Errorf("filter URL %s lacks the SoC or lost the sort", loc)
	}
	b.shot(t, dir, "3-filtered-soc")
	socs := b.texts(t, "#results tbody tr td:nth-child(11)")
	if len(socs) == 0 {
		t.Fatal("no rows after filtering")
	}
	for _, s := range socs {
		if s != soc {
			t.Fatalf("row with SoC %q after filtering on %q", s, soc)
		}
	}

	// Compare the first two rows: tick them and submit.
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(`#results tbody tr:nth-child(1) input[type=checkbox]`)),
		chromedp.Click(chromedp.CSS(`#results tbody tr:nth-child(2) input[type=checkbox]`)),
		chromedp.Submit(chromedp.CSS(`#compareform`)), chromedp.WaitVisible(chromedp.CSS(`#compare`))); err != nil {
		t.Fatal(err)
	}
	b.shot(t, dir, "5-compare")
	if heads := b.texts(t, "#compare tr:first-child th"); len(heads) != 3 {
		t.Errorf("comparison has %d header cells, want 3 (label + 2 results)", len(heads))
	}

	// Open an invalid result (findings) from the table.
	if err := chromedp.Do(ctx, chromedp.Navigate(srv.URL+"/?valid="), chromedp.WaitVisible(chromedp.CSS("#results")),
		chromedp.Click(chromedp.CSS(`#results tr.invalid td:nth-child(2) a`)), chromedp.WaitVisible(chromedp.CSS(`#report`))); err != nil {
		t.Fatal(err)
	}
	b.shot(t, dir, "4-result")
	if f := b.texts(t, "#findings li"); len(f) == 0 || !strings.Contains(f[0], "throttling") {
		t.Errorf("result page findings = %q, want the throttling finding", f)
	}
	svgs, _ := chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("figure.chart svg").length`))
	if svgs == 0 {
		t.Error("result page has no chart SVG")
	}
	b.check(t, "web view")
	t.Logf("screenshots in %s", dir)
}

// TestBrowserStandaloneReport opens `report --html`'s file from a file://
// URL with the network off: it must render without any request.
func TestBrowserStandaloneReport(t *testing.T) {
	b := newBrowser(t)
	dir := screenshotDir(t)
	r, _ := servetest.Result(3)
	path := filepath.Join(t.TempDir(), "report.html")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := page.WriteStandalone(context.Background(), f, r, page.Charts); err != nil {
		t.Fatal(err)
	}
	f.Close()
	var requests []string
	var mu sync.Mutex
	err = chromedp.Listen(b.ctx, func(ev any) {
		if e, ok := ev.(*network.EventRequestWillBeSent); ok && !strings.HasPrefix(e.Request.URL, "file://") && !strings.HasPrefix(e.Request.URL, "data:") {
			mu.Lock()
			requests = append(requests, e.Request.URL)
			mu.Unlock()
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(b.ctx, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}}}); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(b.ctx, chromedp.Navigate("file://"+path), chromedp.WaitVisible(chromedp.CSS("#report"))); err != nil {
		t.Fatal(err)
	}
	b.shot(t, dir, "6-report-html")
	if f := b.texts(t, "#findings li"); len(f) == 0 {
		t.Error("standalone report lacks its findings")
	}
	if n, _ := chromedp.Run(b.ctx, chromedp.Evaluate[int](`document.querySelectorAll("figure.chart svg").length`)); n == 0 {
		t.Error("standalone report has no chart SVG")
	}
	if h := b.texts(t, "#raw"); len(h) != 1 {
		t.Error("standalone report lacks its raw JSON link")
	}
	mu.Lock()
	if len(requests) > 0 {
		t.Errorf("the standalone file made requests: %q", requests)
	}
	mu.Unlock()
	b.check(t, "report --html")
}

// TestBrowserTable10k loads the table over 10,000 results and logs the
// time the server took (request to last byte) and the browser's (last
// byte to a rendered, complete document), for a page of 50 and of 500
// rows. Times are reported, not asserted.
func TestBrowserTable10k(t *testing.T) {
	b := newBrowser(t)
	srv := httptest.NewServer(serve.New(serve.Config{Store: servetest.Fill(10_000)}).Handler())
	defer srv.Close()
	for _, target := range []string{"/?sort=7zip-multi&dir=desc", "/?sort=7zip-multi&dir=desc&per=500"} {
		for range 2 { // the first load warms the SoC menu's cache
			if err := chromedp.Do(b.ctx, chromedp.Navigate(srv.URL+target), chromedp.WaitVisible(chromedp.CSS("#results"))); err != nil {
				t.Fatal(err)
			}
		}
		times, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]float64](`(() => { const n = performance.getEntriesByType("navigation")[0];
			return [n.responseEnd - n.requestStart, n.domComplete - n.responseEnd, document.querySelectorAll("#results tbody tr").length]; })()`))
		if err != nil || len(times) != 3 {
			t.Fatalf("navigation timing: %v %v", times, err)
		}
		t.Logf("%s: server %.1f ms, browser %.1f ms, %d rows", target, times[0], times[1], int(times[2]))
	}
	b.check(t, "10k table")
}

// TestBrowserImportedLogs imports the reference sbc-bench logs into a
// SQLite store and drives the table over them: sort by 7-Zip multi,
// filter by the SoC of the fastest, open a result and compare two.
func TestBrowserImportedLogs(t *testing.T) {
	logs := shareddata.Dir(t, shareddata.LogsDir)
	b := newBrowser(t)
	dir := screenshotDir(t)
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "results.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	entries, err := os.ReadDir(logs)
	if err != nil {
		t.Fatal(err)
	}
	imported := 0
	for _, e := range entries {
		if _, err := importcmd.ImportFile(ctx, st, filepath.Join(logs, e.Name())); err == nil {
			imported++
		}
	}
	if imported < 2 {
		t.Fatalf("only %d of %d logs imported", imported, len(entries))
	}
	t.Logf("%d of %d logs imported", imported, len(entries))
	srv := httptest.NewServer(serve.New(serve.Config{Store: st, Charts: page.Charts}).Handler())
	defer srv.Close()

	if err := chromedp.Do(b.ctx, chromedp.Navigate(srv.URL+"/"), chromedp.WaitVisible(chromedp.CSS("#results")),
		chromedp.Click(chromedp.CSS(`th a[data-key="7zip-multi"]`)), chromedp.WaitVisible(chromedp.CSS(`th a.sorted[data-key="7zip-multi"]`))); err != nil {
		t.Fatal(err)
	}
	b.shot(t, dir, "imported-1-sorted-7zip-multi")
	prev, numeric := 1e18, 0
	for i, v := range b.texts(t, "#results tbody tr td:nth-child(6)") {
		if v == "-" { // results without the figure come last
			prev = -1
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f > prev {
			t.Fatalf("row %d 7-Zip multi %q after %v: not in descending order", i, v, prev)
		}
		prev, numeric = f, numeric+1
	}
	if numeric < 2 {
		t.Fatalf("%d imported rows with a 7-Zip multi figure", numeric)
	}
	// Filter by SoC when the imported results name one (the menu lists
	// them); else by the core types of the fastest row, a substring filter.
	socs := b.texts(t, `select[name="soc"] option:not([value=""])`)
	field, col, value := `select[name="soc"]`, 11, ""
	if len(socs) > 0 {
		value = socs[0]
	} else {
		t.Log("the imported results name no SoC: filtering by core type instead")
		field, col = `input[name="core"]`, 12
		for _, c := range b.texts(t, "#results tbody tr td:nth-child(12)") {
			if c != "" {
				value = c
				break
			}
		}
	}
	if value == "" {
		t.Fatal("nothing to filter the imported results by")
	}
	if err := chromedp.Do(b.ctx, chromedp.SetValue(chromedp.CSS(field), value), chromedp.Submit(chromedp.CSS(`form.filters`)),
		chromedp.WaitVisible(chromedp.CSS(`#results`))); err != nil {
		t.Fatal(err)
	}
	b.shot(t, dir, "imported-2-filtered")
	rows := b.texts(t, fmt.Sprintf("#results tbody tr td:nth-child(%d)", col))
	if len(rows) == 0 {
		t.Fatalf("no rows for %q", value)
	}
	for _, s := range rows {
		if !strings.Contains(s, value) {
			t.Fatalf("row with %q after filtering on %q", s, value)
		}
	}
	if err := chromedp.Do(b.ctx, chromedp.Click(chromedp.CSS(`#results tbody tr:nth-child(1) td:nth-child(2) a`)), chromedp.WaitVisible(chromedp.CSS(`#report`))); err != nil {
		t.Fatal(err)
	}
	b.shot(t, dir, "imported-3-result")
	if txt := b.texts(t, "#report"); len(txt) != 1 || !strings.Contains(txt[0], "7-Zip") {
		t.Errorf("imported result page lacks the report's 7-Zip figures")
	}
	svgs, _ := chromedp.Run(b.ctx, chromedp.Evaluate[int](`document.querySelectorAll("figure.chart svg").length`))
	t.Logf("imported result page: %d chart(s)", svgs)
	// Compare the two fastest results of the whole table.
	if err := chromedp.Do(b.ctx, chromedp.Navigate(srv.URL+"/?sort=7zip-multi&dir=desc"), chromedp.WaitVisible(chromedp.CSS("#results")),
		chromedp.Click(chromedp.CSS(`#results tbody tr:nth-child(1) input[type=checkbox]`)),
		chromedp.Click(chromedp.CSS(`#results tbody tr:nth-child(2) input[type=checkbox]`)),
		chromedp.Submit(chromedp.CSS(`#compareform`)), chromedp.WaitVisible(chromedp.CSS(`#compare`))); err != nil {
		t.Fatal(err)
	}
	b.shot(t, dir, "imported-4-compare")
	if heads := b.texts(t, "#compare tr:first-child th"); len(heads) != 3 {
		t.Errorf("comparison has %d header cells, want 3", len(heads))
	}
	b.check(t, "imported logs")
}
