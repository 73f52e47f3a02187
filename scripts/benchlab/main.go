// Command benchlab fills a results store with generated variations of real
// imported results, for scripts/bench-lab.sh (a benchmark, not a test). It
// reads every result of a seed store (sbc-bench logs imported with
// `boardbench import`) and writes N variations of them to the target store
// through the store's own write path (store.PutAll, a
// transaction per hundred results): each gets a new id, a
// start time spread over five years, and its summary's figures scaled by a
// few per cent (deterministically from its number), so that the figure
// sorts, the SoC and board filters and the counts see realistic values.
// The phases of a variation are left out: the raw tables of a log (30 to
// 500 KB each) would take about 95 GB at a million results, and no list,
// filter or sort reads them.
//
//	go run ./scripts/benchlab -seed SEED.db -store URL|PATH -n N [-from I] [-workers W]
//	go run ./scripts/benchlab -seed SEED.db -store URL|PATH -total N [-workers W]
//	go run ./scripts/benchlab -explain -store URL|PATH PAGE...
//
// -explain prints, for each serve page URL given (`/?soc=RK3588&page=200`),
// the statements the page's list sends and their plans (store.Explain:
// EXPLAIN ANALYZE on PostgreSQL, EXPLAIN QUERY PLAN on SQLite).
//
// Variation i is the same for the same seed store, so a run stopped part
// way is continued with -from.
package main

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"maps"
	"math"
	"os"
	"runtime/pprof"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"boardbench/internal/store"
)

func main() {
	seed := flag.String("seed", "", "seed store (imported results)")
	target := flag.String("store", "", "store to fill (PostgreSQL URL or SQLite path)")
	n := flag.Int("n", 1000, "how many results to write")
	from := flag.Int("from", 0, "number of the first variation")
	upTo := flag.Int("total", 0, "write variations until the store holds `N` results (instead of -n and -from)")
	workers := flag.Int("workers", 2, "concurrent writers")
	profile := flag.String("cpuprofile", "", "write a CPU profile to `FILE`")
	explain := flag.Bool("explain", false, "print the statements and plans of serve's pages (the arguments: page URLs such as '/?soc=RK3588&page=200') on -store, and exit")
	flag.Parse()
	if *explain {
		if err := explainPages(*target, flag.Args()); err != nil {
			fmt.Fprintln(os.Stderr, "benchlab:", err)
			os.Exit(1)
		}
		return
	}
	if *profile != "" {
		f, err := os.Create(*profile)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "benchlab:", err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	if *seed == "" || *target == "" || *n <= 0 || *workers <= 0 {
		fmt.Fprintln(os.Stderr, "usage: benchlab -seed SEED.db -store URL|PATH -n N [-from I] [-workers W]")
		os.Exit(2)
	}
	if *upTo > 0 {
		if err := fill(context.Background(), *seed, *target, *upTo, *workers); err != nil {
			fmt.Fprintln(os.Stderr, "benchlab:", err)
			os.Exit(1)
		}
		return
	}
	if err := run(context.Background(), *seed, *target, *from, *n, *workers); err != nil {
		fmt.Fprintln(os.Stderr, "benchlab:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, seedPath, target string, from, n, workers int) error {
	seeds, err := readSeeds(ctx, seedPath)
	if err != nil {
		return err
	}
	st, err := store.Open(ctx, target)
	if err != nil {
		return err
	}
	defer st.Close()
	const batch = 100
	var next atomic.Int64
	next.Store(int64(from))
	var done atomic.Int64
	start := time.Now()
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				first := int(next.Add(batch) - batch)
				if first >= from+n {
					return
				}
				var docs [][]byte
				for i := first; i < min(first+batch, from+n); i++ {
					doc, err := variation(seeds[i%len(seeds)], i)
					if err != nil {
						errs <- fmt.Errorf("variation %d: %w", i, err)
						return
					}
					docs = append(docs, doc)
				}
				if _, err := store.PutAll(ctx, st, docs); err != nil {
					errs <- fmt.Errorf("variations %d to %d: %w", first, first+len(docs)-1, err)
					return
				}
				if d := done.Add(int64(len(docs))); d%10000 < int64(len(docs)) {
					fmt.Fprintf(os.Stderr, "benchlab: %d written (variations up to %d), %.0f/s\n", d, first+len(docs)-1, float64(d)/time.Since(start).Seconds())
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "benchlab: %d results written in %s\n", done.Load(), time.Since(start).Round(time.Second))
	return nil
}

// fill writes variations until target holds total results (replays
// aside), continuing from the number it holds: variations are written
// nearly in order, and one written already is skipped by the store.
func fill(ctx context.Context, seedPath, target string, total, workers int) error {
	next := 0 // past the variations written by this call
	for {
		st, err := store.Open(ctx, target)
		if err != nil {
			return err
		}
		_, have, err := st.List(ctx, store.Query{Limit: 1})
		st.Close()
		if err != nil {
			return err
		}
		if have >= total {
			fmt.Fprintf(os.Stderr, "benchlab: the store holds %d results\n", have)
			return nil
		}
		from := max(have, next)
		if err := run(ctx, seedPath, target, from, total-have, workers); err != nil {
			return err
		}
		next = from + total - have
	}
}

// readSeeds returns the seed store's documents, decoded, without their
// phases.
func readSeeds(ctx context.Context, path string) ([]map[string]any, error) {
	st, err := store.OpenExisting(ctx, path)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	recs, _, err := st.List(ctx, store.Query{Sort: "id"})
	if err != nil {
		return nil, err
	}
	var out []map[string]any
	for _, r := range recs {
		doc, err := st.Get(ctx, r.ID)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if err := json.Unmarshal(doc, &m); err != nil {
			return nil, fmt.Errorf("seed %s: %v", r.ID, err)
		}
		m["phases"] = []any{}
		out = append(out, m)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the seed store %s holds no results", path)
	}
	return out, nil
}

// variation returns variation i of seed: a new id, a start time and its
// summary's numbers scaled, from i alone.
func variation(seed map[string]any, i int) ([]byte, error) {
	h := sha256.Sum256(binary.BigEndian.AppendUint64([]byte("benchlab"), uint64(i)))
	m := make(map[string]any, len(seed))
	for k, v := range seed {
		m[k] = v
	}
	m["id"] = hex.EncodeToString(h[:16])
	// Five years before 2026-01-01, by the hash.
	base := time.Date(2021, 1, 1, 0, 0, 0, 0, time.UTC)
	secs := binary.BigEndian.Uint64(h[16:24]) % uint64(5*365*24*3600)
	started := base.Add(time.Duration(secs) * time.Second)
	m["started_at"] = started.Format(time.RFC3339)
	if _, ok := seed["finished_at"].(string); ok {
		m["finished_at"] = started.Add(20 * time.Minute).Format(time.RFC3339)
	}
	// Each figure scaled by 0.9 to 1.1, the factor from the hash and the
	// figure's position.
	r := binary.BigEndian.Uint64(h[24:32])
	if sum, ok := seed["summary"].(map[string]any); ok {
		m["summary"] = scale(sum, &r)
	}
	return json.Marshal(m)
}

// scale returns v with every number scaled by a factor of 0.9 to 1.1 drawn
// from *r (a xorshift state), booleans and strings unchanged; a per-CPU
// value's cpu number is kept.
func scale(v any, r *uint64) any {
	switch x := v.(type) {
	case float64:
		*r ^= *r << 13
		*r ^= *r >> 7
		*r ^= *r << 17
		f := 0.9 + 0.2*float64(*r%10000)/10000
		if x == math.Trunc(x) {
			return math.Round(x * f) // counts and whole figures stay whole
		}
		return math.Round(x*f*10) / 10
	case map[string]any:
		out := make(map[string]any, len(x))
		for _, k := range slices.Sorted(maps.Keys(x)) { // in key order: the same factors each time
			if k == "cpu" {
				out[k] = x[k]
				continue
			}
			out[k] = scale(x[k], r)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = scale(e, r)
		}
		return out
	}
	return v
}
