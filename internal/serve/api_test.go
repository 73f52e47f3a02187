package serve

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"boardbench/internal/labapi"
	"boardbench/internal/result"
	"boardbench/internal/serve/servetest"
	"boardbench/internal/store"
)

// uploadDoc returns generated result i as a document.
func uploadDoc(t *testing.T, i int) []byte {
	t.Helper()
	r, _ := servetest.Result(i)
	b, err := result.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// uploadServer serves a fresh SQLite store with uploads on, and returns
// the handler, the store and a token of each kind: good, revoked.
func uploadServer(t *testing.T, up Uploads) (http.Handler, store.Store, string, string) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	good, err := store.AddToken(ctx, st, "board-1")
	if err != nil {
		t.Fatal(err)
	}
	revoked, err := store.AddToken(ctx, st, "old-board")
	if err != nil {
		t.Fatal(err)
	}
	if err := store.RevokeToken(ctx, st, "old-board"); err != nil {
		t.Fatal(err)
	}
	up.Store = st
	return New(Config{Store: st, Uploads: &up}).Handler(), st, good, revoked
}

// post sends body to the upload path as if over loopback (the local
// address the server sees is 127.0.0.1 unless local says otherwise).
func post(h http.Handler, token string, body []byte, local string) *httptest.ResponseRecorder {
	req := httptest.NewRequest("POST", labapi.ResultsPath, bytes.NewReader(body))
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if local == "" {
		local = "127.0.0.1:8080"
	}
	addr, _ := net.ResolveTCPAddr("tcp", local)
	req = req.WithContext(context.WithValue(req.Context(), http.LocalAddrContextKey, addr))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func errorOf(t *testing.T, rec *httptest.ResponseRecorder) labapi.ErrorDetail {
	t.Helper()
	var ea labapi.ErrorAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &ea); err != nil {
		t.Fatalf("answer %d is not a JSON error: %v\n%s", rec.Code, err, rec.Body)
	}
	if ea.Error.Status != rec.Code || ea.Error.Message == "" {
		t.Errorf("error body %+v for status %d", ea.Error, rec.Code)
	}
	return ea.Error
}

func TestUploadRefusals(t *testing.T) {
	h, st, good, revoked := uploadServer(t, Uploads{MaxBytes: 200_000})
	d := uploadDoc(t, 1)
	big := append(bytes.Repeat([]byte(" "), 200_001), d...)
	nan := []byte(strings.Replace(string(d), `"sevenzip_multi_mips": `, `"sevenzip_multi_mips": NaN, "x": `, 1))
	if bytes.Equal(nan, d) {
		t.Fatal("the NaN document is the good one")
	}
	for _, c := range []struct {
		name, token, local string
		body               []byte
		status             int
		want               string
	}{
		{"no token", "", "", d, 401, "needs a token"},
		{"unknown token", "bbt_nosuchtoken", "", d, 401, "unknown token"},
		{"revoked token", revoked, "", d, 403, "revoked"},
		{"plain HTTP from the network", good, "192.0.2.7:8080", d, 403, "plain HTTP"},
		{"oversized", good, "", big, 413, "at most"},
		{"wrong schema", good, "", []byte(`{"schema_version": "1.1", "hello": "world"}`), 400, "not a result"},
		{"control characters", good, "", []byte(strings.Replace(string(d), `"status": "complete"`, `"status": "complete", "note": "\u001b]0;owned\u0007"`, 1)), 400, "control character"},
		{"NaN", good, "", nan, 400, "NaN"},
		{"1e999", good, "", []byte(strings.Replace(string(d), `"status": "complete"`, `"status": "complete", "x": 1e999`, 1)), 400, "not finite"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := post(h, c.token, c.body, c.local)
			if rec.Code != c.status {
				t.Fatalf("status %d, want %d: %s", rec.Code, c.status, rec.Body)
			}
			if e := errorOf(t, rec); !strings.Contains(e.Message, c.want) {
				t.Errorf("message %q, want %q", e.Message, c.want)
			}
			if c.status == 401 && rec.Header().Get("WWW-Authenticate") == "" {
				t.Error("401 without WWW-Authenticate")
			}
		})
	}
	if _, total, err := st.List(context.Background(), store.Query{}); err != nil || total != 0 {
		t.Errorf("the refused uploads left %d results (%v)", total, err)
	}
}

func TestUploadStoresOnceWithTheTokenName(t *testing.T) {
	h, st, good, _ := uploadServer(t, Uploads{})
	d := uploadDoc(t, 2)
	for i, want := range []int{201, 200, 200} {
		rec := post(h, good, d, "")
		if rec.Code != want {
			t.Fatalf("upload %d: %d, want %d: %s", i+1, rec.Code, want, rec.Body)
		}
		var ans labapi.UploadAnswer
		if err := json.Unmarshal(rec.Body.Bytes(), &ans); err != nil {
			t.Fatal(err)
		}
		if ans.Created != (want == 201) || ans.URL != "/results/"+ans.ID || ans.Raw != labapi.ResultsPath+"/"+ans.ID {
			t.Errorf("upload %d: answer %+v", i+1, ans)
		}
		if want == 201 && rec.Header().Get("Location") != ans.URL {
			t.Errorf("Location %q", rec.Header().Get("Location"))
		}
	}
	ctx := context.Background()
	recs, total, err := st.List(ctx, store.Query{})
	if err != nil || total != 1 {
		t.Fatalf("%d results stored (%v), want 1", total, err)
	}
	if name, err := store.Uploader(ctx, st, recs[0].ID); err != nil || name != "board-1" {
		t.Errorf("uploader %q (%v), want board-1", name, err)
	}
	// The permanent page, the raw document and the list.
	if rec := get(t, h, "/results/"+recs[0].ID); rec.Code != 200 || !strings.Contains(rec.Body.String(), recs[0].Board) {
		t.Errorf("page: %d", rec.Code)
	}
	rec := get(t, h, labapi.ResultsPath+"/"+recs[0].ID)
	if rec.Code != 200 || !bytes.Equal(rec.Body.Bytes(), d) {
		t.Errorf("raw document: %d, equal %v", rec.Code, bytes.Equal(rec.Body.Bytes(), d))
	}
	toks, err := store.Tokens(ctx, st)
	if err != nil || len(toks) != 2 || toks[0].Name != "board-1" || toks[0].Uploads != 1 || toks[1].Uploads != 0 || !toks[1].Revoked() {
		t.Errorf("tokens %+v (%v)", toks, err)
	}
}

func TestAPIList(t *testing.T) {
	h := New(Config{Store: servetest.Fill(30)}).Handler()
	rec := get(t, h, labapi.ResultsPath+"?soc=RK3588&sort=7zip-multi&dir=desc&per=3&page=2")
	if rec.Code != 200 || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("%d %s: %s", rec.Code, rec.Header().Get("Content-Type"), rec.Body)
	}
	var la labapi.ListAnswer
	if err := json.Unmarshal(rec.Body.Bytes(), &la); err != nil {
		t.Fatal(err)
	}
	if la.Page != 2 || la.PerPage != 3 || len(la.Results) != 3 || la.Total < 6 {
		t.Fatalf("answer: page %d per %d, %d results of %d", la.Page, la.PerPage, len(la.Results), la.Total)
	}
	prev := 1e18
	for _, r := range la.Results {
		if !strings.Contains(r.SoC, "RK3588") {
			t.Errorf("%s: SoC %q", r.ID, r.SoC)
		}
		if v := r.Figures["sevenzip_multi_mips"]; v > prev {
			t.Errorf("not sorted: %v after %v", v, prev)
		} else {
			prev = v
		}
	}
	for target, code := range map[string]int{
		labapi.ResultsPath + "?per=100000":             400,
		labapi.ResultsPath + "?nosuch=1":               400,
		labapi.ResultsPath + "/nothex":                 400,
		labapi.ResultsPath + "/00000000000000000000ff": 404,
	} {
		rec := get(t, h, target)
		if rec.Code != code {
			t.Errorf("%s: %d, want %d", target, rec.Code, code)
			continue
		}
		errorOf(t, rec)
	}
}

func TestUploadNeedsAcceptUploads(t *testing.T) {
	h := New(Config{Store: servetest.Fill(1)}).Handler()
	rec := post(h, "bbt_x", uploadDoc(t, 1), "")
	if rec.Code != http.StatusMethodNotAllowed {
		t.Errorf("POST without uploads: %d", rec.Code)
	}
}

func TestRateLimitPerToken(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := newRateLimit(2, 3, func() time.Time { return now })
	for i := range 3 {
		if ok, _ := l.allow("a"); !ok {
			t.Fatalf("upload %d of the burst refused", i+1)
		}
	}
	ok, wait := l.allow("a")
	if ok || wait != 500*time.Millisecond {
		t.Errorf("beyond the burst: %v, wait %v; want refused, 500ms", ok, wait)
	}
	if ok, _ := l.allow("b"); !ok {
		t.Error("another token shares the first one's bucket")
	}
	now = now.Add(500 * time.Millisecond)
	if ok, _ := l.allow("a"); !ok {
		t.Error("refused after the wait it named")
	}
}

func TestUploadOverRateIs429(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	h, _, good, _ := uploadServer(t, Uploads{Rate: 1, Burst: 2, Now: func() time.Time { return now }})
	for i := range 2 {
		if rec := post(h, good, uploadDoc(t, i), ""); rec.Code != 201 {
			t.Fatalf("upload %d: %d %s", i+1, rec.Code, rec.Body)
		}
	}
	rec := post(h, good, uploadDoc(t, 5), "")
	if rec.Code != 429 {
		t.Fatalf("third upload at once: %d, want 429", rec.Code)
	}
	errorOf(t, rec)
	if s, err := strconv.Atoi(rec.Header().Get("Retry-After")); err != nil || s != 1 {
		t.Errorf("Retry-After %q", rec.Header().Get("Retry-After"))
	}
}

// TestClientAgainstServer pushes through labapi.Client over a real
// loopback socket: created, then present; a refusal is an HTTPError.
func TestClientAgainstServer(t *testing.T) {
	h, _, good, revoked := uploadServer(t, Uploads{})
	srv := httptest.NewServer(h)
	defer srv.Close()
	u, err := labapi.ParseLab(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	c := &labapi.Client{Base: u, Token: good}
	ctx := context.Background()
	for _, created := range []bool{true, false} {
		ans, err := c.Upload(ctx, uploadDoc(t, 7))
		if err != nil || ans.Created != created {
			t.Fatalf("upload: %+v, %v; want created %v", ans, err, created)
		}
	}
	c.Token = revoked
	_, err = c.Upload(ctx, uploadDoc(t, 8))
	var he *labapi.HTTPError
	if !errorsAs(err, &he) || he.Status != 403 {
		t.Errorf("revoked: %v", err)
	}
	resp, err := http.Get(srv.URL + labapi.ResultsPath)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), `"total":1`) {
		t.Errorf("list: %s", body)
	}
}

func errorsAs(err error, target any) bool { return errors.As(err, target) }
