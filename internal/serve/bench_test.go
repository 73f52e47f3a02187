package serve

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"boardbench/internal/serve/servetest"
	"boardbench/internal/store"
)

// BenchmarkTable10kMemory renders the first table page, sorted by 7-Zip
// multi, over 10,000 results in the in-memory store: the server's own
// cost (parameters, page building, templates).
func BenchmarkTable10kMemory(b *testing.B) {
	h := newTestServer(10_000)
	b.ResetTimer()
	for b.Loop() {
		if rec := get(b, h, "/?sort=7zip-multi&dir=desc"); rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}

// BenchmarkTable10kSQLite is the same over the SQLite store (the sort and
// count done in SQL).
func BenchmarkTable10kSQLite(b *testing.B) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(b.TempDir(), "results.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	for i := range 10_000 {
		r, _ := servetest.Result(i)
		doc, err := json.Marshal(r)
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := st.Put(ctx, doc); err != nil {
			b.Fatal(err)
		}
	}
	h := New(Config{Store: st}).Handler()
	for _, target := range []string{"/", "/?page=150", "/?sort=7zip-multi&dir=desc", "/?soc=Rockchip+RK3588&sort=memcpy", "/?q=orange&page=20"} {
		b.Run(target, func(b *testing.B) {
			for b.Loop() {
				if rec := get(b, h, target); rec.Code != 200 {
					b.Fatal(rec.Code, rec.Body.String())
				}
			}
		})
	}
}
