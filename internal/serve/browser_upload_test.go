package serve_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/labapi"
	"boardbench/internal/result"
	"boardbench/internal/serve"
	"boardbench/internal/serve/page"
	"boardbench/internal/serve/servetest"
	"boardbench/internal/store"

	"github.com/chromedp/chromedp"
)

// TestBrowserOpensUploadedResult uploads a result with a token (as
// results push https://LAB does) and opens its permanent URL, the one the
// upload's answer names, in headless Chromium.
func TestBrowserOpensUploadedResult(t *testing.T) {
	b := newBrowser(t)
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tok, err := store.AddToken(ctx, st, "browser-board")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(serve.New(serve.Config{Store: st, Charts: page.Charts, Uploads: &serve.Uploads{Store: st}}).Handler())
	defer srv.Close()
	r, rec := servetest.Result(11)
	doc, err := result.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	u, err := labapi.ParseLab(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	c := &labapi.Client{Base: u, Token: tok}
	ans, err := c.Upload(ctx, doc)
	if err != nil || !ans.Created {
		t.Fatalf("upload: %+v, %v", ans, err)
	}
	if ans.URL != "/results/"+rec.ID {
		t.Fatalf("the answer's URL %q is not the result's permanent page /results/%s", ans.URL, rec.ID)
	}
	if err := chromedp.Do(b.ctx, chromedp.Navigate(c.Link(ans.URL)), chromedp.WaitVisible(chromedp.CSS("#report"))); err != nil {
		t.Fatal(err)
	}
	b.shot(t, screenshotDir(t), "uploaded-result")
	title, err := chromedp.Run(b.ctx, chromedp.Title())
	if err != nil {
		t.Fatal(err)
	}
	body := strings.Join(b.texts(t, "body"), " ")
	if !strings.Contains(title+body, rec.Board) {
		t.Errorf("the uploaded result's page names no %q: title %q", rec.Board, title)
	}
	b.check(t, "uploaded result page")
}
