package store

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkList10k lists every result of a store of 10,000 generated
// results (what `results list` does) and reports the store's size per
// result. Run: go test -run '^$' -bench List10k ./internal/store/
func BenchmarkList10k(b *testing.B) {
	const n = 10000
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "bench.db")
	if keep := os.Getenv("BOARDBENCH_BENCH_STORE"); keep != "" {
		// Keep the generated store, to time the built binary on it.
		if _, err := os.Stat(keep); err == nil {
			b.Fatalf("%s exists: BOARDBENCH_BENCH_STORE must name a new file", keep)
		}
		path = keep
	}
	st, err := Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	boards := []string{"Radxa ROCK 5B", "Raspberry Pi 5", "Orange Pi Zero3", "VisionFive 2", "ODROID-N2+"}
	var docBytes int
	for i := range n {
		r := testResult(fmt.Sprintf("%032x", i+1), boards[i%len(boards)], "SoC", "6.1", float64(10000+i%5000), t0.Add(time.Duration(i)*time.Minute))
		doc, _ := jsonMarshal(r)
		docBytes += len(doc)
		if _, _, err := st.Put(ctx, doc); err != nil {
			b.Fatal(err)
		}
	}
	st.Close()
	size := fileSize(path) + fileSize(path+"-wal")
	st, err = Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for b.Loop() {
		recs, _, err := st.List(ctx, Query{})
		if err != nil || len(recs) != n {
			b.Fatalf("%d records, %v", len(recs), err)
		}
	}
	b.ReportMetric(float64(size)/n, "store-bytes/result")
	b.ReportMetric(float64(docBytes)/n, "doc-bytes/result")
}

func fileSize(p string) int64 {
	fi, err := os.Stat(p)
	if err != nil {
		return 0
	}
	return fi.Size()
}
