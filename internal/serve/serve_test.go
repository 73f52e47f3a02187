package serve

import (
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"boardbench/internal/serve/servetest"
	"boardbench/internal/store"
)

var update = flag.Bool("update", false, "rewrite the golden pages")

func get(t testing.TB, h http.Handler, target string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
	return rec
}

func newTestServer(n int) http.Handler {
	return New(Config{Store: servetest.Fill(n)}).Handler()
}

// TestGoldenPages compares each page with its golden HTML
// (go test ./internal/serve -update rewrites them).
func TestGoldenPages(t *testing.T) {
	h := newTestServer(12)
	for _, c := range []struct{ name, target string }{
		{"table", "/"},
		{"table-sorted-filtered", "/?sort=7zip-multi&dir=desc&soc=Rockchip+RK3588&per=2&page=2"},
		{"result-invalid", "/results/00000000000000000000000000000004"},
		{"compare", "/compare?id=00000000000000000000000000000001&id=00000000000000000000000000000002"},
		{"bad-request", "/?per=100000"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := get(t, h, c.target)
			got := rec.Body.String()
			path := filepath.Join("testdata", c.name+".golden.html")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("%s differs from %s (run with -update after checking)", c.target, path)
			}
		})
	}
}

func TestStatusCodes(t *testing.T) {
	h := newTestServer(20)
	for _, c := range []struct {
		target string
		code   int
	}{
		{"/", 200},
		{"/?sort=7zip-multi&dir=asc", 200},
		{"/?sort=board%3B+DROP+TABLE+results", 400},
		{"/?sort=sevenzip_multi_mips", 400}, // store names are not column keys
		{"/?dir=sideways", 400},
		{"/?per=501", 400},
		{"/?per=0", 400},
		{"/?page=-1", 400},
		{"/?page=99999999999999999999", 400},
		{"/?soc=" + strings.Repeat("x", 101), 400},
		{"/?q=%00", 400},
		{"/?q=%ff", 400},
		{"/?valid=maybe", 400},
		{"/?unknown=1", 400},
		{"/?q=a&q=b", 400},
		{"/?sort=device;DROP%20TABLE", 400}, // Go's URL.Query would drop the pair and serve the default table
		{"/?soc=x;y", 400},
		{"/?q=%zz", 400},
		{"/compare?id=00000000000000000000000000000001;id=00000000000000000000000000000002", 400},
		{"/?q=%27+OR+1%3D1+--", 200},
		{"/?page=9999", 200}, // past the end: an empty page
		{"/results/00000000000000000000000000000001", 200},
		{"/results/00000000000000000000000000000001.json", 200},
		{"/results/ffffffffffffffffffffffffffffffff", 404},
		{"/results/..%2f..%2fetc%2fpasswd", 400},
		{"/results/ABCDEF0123456789", 400},
		{"/results/1234", 400},
		{"/compare?id=00000000000000000000000000000001", 400},
		{"/compare?id=00000000000000000000000000000001&id=00000000000000000000000000000001", 400},
		{"/compare?id=00000000000000000000000000000001&id=zz", 400},
		{"/compare?id=00000000000000000000000000000001&id=ffffffffffffffffffffffffffffffff", 404},
		{"/nothing", 404},
	} {
		if rec := get(t, h, c.target); rec.Code != c.code {
			t.Errorf("GET %s = %d, want %d\n%.300s", c.target, rec.Code, c.code, rec.Body.String())
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/", strings.NewReader("x")))
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST / = %d, want 405", rec.Code)
	}
}

var rowRE = regexp.MustCompile(`data-id="([0-9a-f]+)"`)
var multiRE = regexp.MustCompile(`data-v="([0-9.]+)"`)

func TestSortFilterAndPaging(t *testing.T) {
	h := newTestServer(60)
	body := get(t, h, "/?sort=7zip-multi&dir=desc&per=100").Body.String()
	vals := multiRE.FindAllStringSubmatch(body, -1)
	if len(vals) != 60 {
		t.Fatalf("rows with 7-Zip multi = %d, want 60", len(vals))
	}
	for i := 1; i < len(vals); i++ {
		if len(vals[i][1]) > len(vals[i-1][1]) || len(vals[i][1]) == len(vals[i-1][1]) && vals[i][1] > vals[i-1][1] {
			t.Fatalf("row %d (%s) after %s: not descending", i, vals[i][1], vals[i-1][1])
		}
	}
	body = get(t, h, "/?soc=Broadcom+BCM2712&per=100").Body.String()
	if n := strings.Count(body, `title="Broadcom BCM2712">Broadcom BCM2712</td>`); n != 12 || len(rowRE.FindAllString(body, -1)) != 12 {
		t.Errorf("SoC filter: %d matching of %d rows, want 12 of 12", n, len(rowRE.FindAllString(body, -1)))
	}
	body = get(t, h, "/?per=25&page=3").Body.String()
	if n := len(rowRE.FindAllString(body, -1)); n != 10 {
		t.Errorf("page 3 of 60 by 25 has %d rows, want 10", n)
	}
	if !strings.Contains(body, "page 3 of 3") || !strings.Contains(body, `rel="prev"`) || strings.Contains(body, `rel="next"`) {
		t.Errorf("last page's navigation wrong")
	}
	body = get(t, h, "/?valid=1&per=100").Body.String()
	if strings.Contains(body, `class="invalid"`) {
		t.Errorf("valid only still shows invalid rows")
	}
}

func TestEscaping(t *testing.T) {
	h := newTestServer(5)
	body := get(t, h, "/?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E").Body.String()
	if strings.Contains(body, "<script>") {
		t.Errorf("search text reflected unescaped")
	}
	body = get(t, h, "/?per=100").Body.String()
	if strings.Contains(body, "<Plus>") || !strings.Contains(body, "Orange Pi 5 &lt;Plus&gt; &amp; &#34;friends&#34;") {
		t.Errorf("board name not escaped")
	}
	if !strings.Contains(body, `title="findings: throttling"`) {
		t.Errorf("invalid row lacks its findings on hover")
	}
}

// FuzzHandlers: no query string or path makes a handler panic or answer
// 5xx.
func FuzzHandlers(f *testing.F) {
	for _, s := range []string{"/?sort=aes&dir=asc", "/?q=x&soc=y&page=2", "/results/00000000000000000000000000000001", "/compare?id=1&id=2", "/?per=%ff", "/results/%00", "/?sort=device;DROP%20TABLE", "/compare?id=1;id=2", "/?q=%zz"} {
		f.Add(s)
	}
	h := newTestServer(10)
	f.Fuzz(func(t *testing.T, target string) {
		req, err := http.NewRequest("GET", "http://localhost"+target, nil)
		if err != nil || req.URL.Path == "" || req.URL.Path[0] != '/' {
			return
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code >= 500 {
			t.Errorf("GET %q = %d", target, rec.Code)
		}
	})
}

// TestTableHeaderMatchesRows checks that the header has a cell for every
// cell of a row (the tags column included), and that the tags header,
// which cannot sort, says so instead of linking.
func TestTableHeaderMatchesRows(t *testing.T) {
	body := get(t, newTestServer(3), "/").Body.String()
	thead := body[strings.Index(body, "<thead>"):strings.Index(body, "</thead>")]
	tbody := body[strings.Index(body, "<tbody>"):strings.Index(body, "</tbody>")]
	firstRow := tbody[:strings.Index(tbody, "</tr>")]
	if h, c := strings.Count(thead, "<th>")+strings.Count(thead, "<th "), strings.Count(firstRow, "<td"); h != c || h != len(Columns)+2 {
		t.Errorf("%d header cells, %d cells in a row, want %d of each", h, c, len(Columns)+2)
	}
	if !strings.Contains(thead, `<th data-key="tags" title="`+TagsNotSortable+`">Tags</th>`) {
		t.Errorf("no unsortable Tags header:\n%s", thead)
	}
}

// TestSubstringFiltersOnSQLite checks, on the SQLite store, that the
// kernel, core type and SoC filters match what the field contains,
// ignoring case: "6.6" selects the 6.6.x kernels.
func TestSubstringFiltersOnSQLite(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "results.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := range 15 {
		r, _ := servetest.Result(i)
		doc, _ := json.Marshal(r)
		if _, _, err := st.Put(ctx, doc); err != nil {
			t.Fatal(err)
		}
	}
	h := New(Config{Store: st}).Handler()
	for _, c := range []struct {
		query, want string
		rows        int
	}{
		{"kernel=6.6", `">6.6.51`, 5},
		{"core=cortex-a72", "×Cortex-A72</td>", 3},
		{"soc=bcm27", `">Broadcom BCM27`, 6},
	} {
		body := get(t, h, "/?per=100&"+c.query).Body.String()
		rows := rowRE.FindAllString(body, -1)
		if len(rows) != c.rows {
			t.Errorf("%s: %d rows, want %d", c.query, len(rows), c.rows)
		}
		if n := strings.Count(body, c.want); n < c.rows {
			t.Errorf("%s: %q in %d rows, want %d", c.query, c.want, n, c.rows)
		}
	}
}
