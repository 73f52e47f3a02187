package serve

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/labapi"
	"boardbench/internal/serve/servetest"
	"boardbench/internal/store"
)

// TestKindParameter: the table shows run and import results by default,
// kind=all every kind, kind=K one kind; the API lists every kind without
// the parameter; a kind that is not a plain name is a 400. On the SQLite
// store, so that the store's kind filter and its kept totals are the
// ones checked.
func TestKindParameter(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "results.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	put := func(doc []byte) {
		if _, _, err := st.Put(ctx, doc); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 4 {
		r, _ := servetest.Result(i)
		doc, _ := json.Marshal(r)
		put(doc)
	}
	for i, k := range []string{"c2c", "c2c", "storage", "import"} {
		r, _ := servetest.OtherResult(k, i)
		doc, _ := json.Marshal(r)
		put(doc)
	}
	h := New(Config{Store: st}).Handler()
	for _, c := range []struct {
		target string
		code   int
		rows   int
		total  string
	}{
		{"/", 200, 5, "5 results of kind run and import"},
		{"/?kind=all", 200, 8, "8 results"},
		{"/?kind=storage", 200, 1, "1 results"},
		{"/?kind=c2c&sort=7zip-multi", 200, 2, "2 results"},
		{"/?kind=%3Cscript%3E", 400, 0, ""},
		{"/?kind=RUN", 400, 0, ""},
		{"/?kind=" + strings.Repeat("a", 33), 400, 0, ""},
	} {
		rec := get(t, h, c.target)
		body := rec.Body.String()
		if rec.Code != c.code {
			t.Errorf("%s: %d, want %d", c.target, rec.Code, c.code)
			continue
		}
		if n := len(rowRE.FindAllString(body, -1)); c.code == 200 && (n != c.rows || !strings.Contains(body, c.total)) {
			t.Errorf("%s: %d rows, want %d with %q", c.target, n, c.rows, c.total)
		}
	}
	var list labapi.ListAnswer
	rec := get(t, h, "/api/v1/results")
	if err := json.Unmarshal(rec.Body.Bytes(), &list); err != nil || list.Total != 8 {
		t.Errorf("API without kind: total %d (%v), want every kind: 8", list.Total, err)
	}
}
