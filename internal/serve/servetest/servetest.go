// Package servetest provides what the web view's tests need: an in-memory
// results store and generated results. The figures of generated results
// are made up for tests (deterministic from their index), never measured.
package servetest

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"time"

	"boardbench/internal/finding"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/result"
	"boardbench/internal/store"
)

// MemStore is an in-memory store.Store with the SQL store's filter and
// sort semantics (board, SoC, kernel, core type and text as
// case-insensitive substrings; tag exact).
type MemStore struct {
	mu   sync.Mutex
	recs []store.Record
	docs map[string][]byte
}

// NewMemStore returns an empty store.
func NewMemStore() *MemStore { return &MemStore{docs: map[string][]byte{}} }

// Add stores doc with its record.
func (m *MemStore) Add(rec store.Record, doc []byte) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.recs = append(m.recs, rec)
	m.docs[rec.ID] = doc
}

// Put is not supported: the web view never writes.
func (m *MemStore) Put(context.Context, []byte) (string, bool, error) {
	return "", false, fmt.Errorf("read-only test store")
}

// Get implements store.Store.
func (m *MemStore) Get(_ context.Context, id string) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	d, ok := m.docs[id]
	if !ok {
		return nil, fmt.Errorf("%s: %w", id, store.ErrNotFound)
	}
	return d, nil
}

// Record implements store.Store.
func (m *MemStore) Record(_ context.Context, id string) (store.Record, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range m.recs {
		if r.ID == id {
			return r, nil
		}
	}
	return store.Record{}, fmt.Errorf("%s: %w", id, store.ErrNotFound)
}

// List implements store.Store.
func (m *MemStore) List(ctx context.Context, q store.Query) ([]store.Record, int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []store.Record
	for _, r := range m.recs {
		if !contains(r.SoC, q.SoC) || !contains(r.Kernel, q.Kernel) || !contains(r.Board, q.Board) ||
			!contains(r.CoreTypes, q.CoreType) || q.ValidOnly && !r.Valid ||
			q.Tag != "" && !slices.Contains(r.Tags, q.Tag) || !store.KindSelected(q, r.Kind) {
			continue
		}
		if t := strings.ToLower(q.Text); t != "" && !strings.Contains(strings.ToLower(r.Board+"\x00"+r.SoC+"\x00"+r.Kernel+"\x00"+r.Distro+"\x00"+r.Host), t) {
			continue
		}
		out = append(out, r)
	}
	key := func(r store.Record) (string, float64, bool) {
		switch q.Sort {
		case "", "created_at":
			return "", float64(r.CreatedAt.UnixNano()), true
		case "board":
			return r.Board, 0, true
		case "soc":
			return r.SoC, 0, true
		case "kernel":
			return r.Kernel, 0, true
		case "distro":
			return r.Distro, 0, true
		case "core_types":
			return r.CoreTypes, 0, true
		case "kind":
			return r.Kind, 0, true
		case "valid":
			if r.Valid {
				return "", 1, true
			}
			return "", 0, true
		}
		v, ok := r.Figures[q.Sort]
		return "", v, ok
	}
	desc := q.Desc || q.Sort == ""
	slices.SortStableFunc(out, func(a, b store.Record) int {
		as, af, aok := key(a)
		bs, bf, bok := key(b)
		if aok != bok { // missing figures last
			if aok {
				return -1
			}
			return 1
		}
		c := strings.Compare(as, bs)
		if c == 0 {
			c = int(math.Copysign(1, af-bf)) * boolInt(af != bf)
		}
		if c == 0 {
			c = strings.Compare(a.ID, b.ID)
		}
		if desc {
			c = -c
		}
		return c
	})
	total := len(out)
	if q.Offset > len(out) {
		out = nil
	} else {
		out = out[q.Offset:]
	}
	if q.Limit > 0 && len(out) > q.Limit {
		out = out[:q.Limit]
	}
	return out, total, ctx.Err()
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Tag is not supported: the web view never writes.
func (m *MemStore) Tag(context.Context, string, string) error {
	return fmt.Errorf("read-only test store")
}

// Remove is not supported: the web view never writes.
func (m *MemStore) Remove(context.Context, string) error { return fmt.Errorf("read-only test store") }

// Close implements store.Store.
func (m *MemStore) Close() error { return nil }

type board struct{ name, soc, big, little string }

var boards = []board{
	{"Radxa ROCK 5B", "Rockchip RK3588", "Cortex-A76", "Cortex-A55"},
	{"Raspberry Pi 5 Model B Rev 1.0", "Broadcom BCM2712", "Cortex-A76", ""},
	{"Raspberry Pi 4 Model B Rev 1.4", "Broadcom BCM2711", "Cortex-A72", ""},
	{"Orange Pi 5 <Plus> & \"friends\"", "Rockchip RK3588S", "Cortex-A76", "Cortex-A55"},
	{"StarFive VisionFive 2", "StarFive JH7110", "SiFive U74", ""},
}

// Result returns generated result number i (0-based) with its record.
// Every seventh is invalid (a throttling finding); figures grow with i
// modulo 997 so that sorting has something to order.
func Result(i int) (*result.Result, store.Record) {
	b := boards[i%len(boards)]
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Hour)
	in := &inventory.Info{SchemaVersion: "1.0", CollectedAt: t0, Root: "/"}
	in.Board.Model, in.SoC.Guess = b.name, b.soc
	in.OS.Kernel.Release = []string{"6.1.0-rockchip", "6.6.51+rpt-rpi-2712", "5.10.160"}[i%3]
	in.OS.Distro.PrettyName = "Debian GNU/Linux 12 (bookworm)"
	p0, p4 := 0, 4
	in.CPU.Clusters = []cpu.Cluster{{ID: 0, CPUs: []int{0, 1, 2, 3}, Core: b.big, CoreName: b.big, Policy: &p0, Policies: []int{0}}}
	if b.little != "" {
		in.CPU.Clusters = append(in.CPU.Clusters, cpu.Cluster{ID: 1, CPUs: []int{4, 5, 6, 7}, Core: b.little, CoreName: b.little, Policy: &p4, Policies: []int{4}})
	}
	r := result.New("run", in, map[string]any{})
	r.ID = fmt.Sprintf("%032x", i+1)
	r.StartedAt = t0
	end := t0.Add(10 * time.Minute)
	r.FinishedAt = &end
	r.Status = result.StatusComplete
	multi := float64(5000 + (i%997)*17)
	single := float64(1500 + (i%991)*3)
	r.Summary = result.Summary{
		ClockMHz:           []result.Value{{CPU: 0, Core: b.big, Value: 1800 + float64(i%5)*100}},
		SevenZipMultiMIPS:  &multi,
		SevenZipMultiRuns:  []float64{multi},
		SevenZipMultiBasis: "all runs",
		SevenZipSingleMIPS: []result.Value{{CPU: 0, Core: b.big, Value: single}},
		AES256At16K:        []result.Value{{CPU: 0, Core: b.big, Value: 1e6 + float64(i%89)*1000}},
		MemcpyMBs:          []result.Value{{CPU: 0, Core: b.big, Value: 4000 + float64(i%83)*10}},
		MemsetMBs:          []result.Value{{CPU: 0, Core: b.big, Value: 9000 + float64(i%79)*10}},
		Valid:              true, Verdict: "valid: no finding invalidates the figures",
	}
	ph := result.Phase{Name: "7zip-multi", Title: "7-Zip multi-threaded", CPUs: []int{0, 1, 2, 3}, Status: result.PhaseOK,
		StartedAt: t0, EndedAt: &end, DurationS: 600}
	for k := range 10 {
		clock, temp := 1800+float64(i%5)*100, 40+float64(k)*2.5
		if i%7 == 3 && k > 5 {
			clock = 1416 // the throttling the finding reports
		}
		load := 4.0
		ph.Samples = append(ph.Samples, result.Sample{Time: t0.Add(time.Duration(k) * time.Minute), ClockMHz: []*float64{&clock},
			TempC: &temp, Load1: &load})
	}
	r.Phases = []result.Phase{ph}
	if i%7 == 3 {
		r.Summary.Valid = false
		r.Summary.Verdict = "not valid: throttling"
		r.Findings = []finding.Finding{{ID: "throttling", Severity: finding.Invalidates, Title: "The clock dropped <below> the top clock during 7-Zip",
			Evidence: []string{"cpu0-3 at 1416 MHz for 12 s of 60 s"}, Advice: "Cool the board & run again."}}
	}
	rec := store.Record{ID: r.ID, Kind: "run", Board: b.name, SoC: b.soc, Kernel: in.OS.Kernel.Release, Distro: in.OS.Distro.PrettyName,
		Arch: "arm64", CreatedAt: t0, Status: r.Status, Valid: r.Summary.Valid, Tags: []string{}, FindingIDs: []string{}, Tools: map[string]string{"7zip": "24.09"},
		Figures: map[string]float64{"sevenzip_multi_mips": multi, "sevenzip_single_mips.max": single, "clock_mhz.max": r.Summary.ClockMHz[0].Value,
			"aes256_16k.max": r.Summary.AES256At16K[0].Value, "memcpy_mb_s.max": r.Summary.MemcpyMBs[0].Value, "memset_mb_s.max": r.Summary.MemsetMBs[0].Value}}
	rec.CoreTypes = "4×" + b.big
	if b.little != "" {
		rec.CoreTypes += " + 4×" + b.little
	}
	for _, f := range r.Findings {
		rec.FindingIDs = append(rec.FindingIDs, f.ID)
	}
	if i%4 == 0 {
		rec.Tags = []string{"lab"}
	}
	return r, rec
}

// Fill adds n generated results to a new MemStore.
func Fill(n int) *MemStore {
	m := NewMemStore()
	for i := range n {
		r, rec := Result(i)
		doc, err := json.Marshal(r)
		if err != nil {
			panic(err)
		}
		m.Add(rec, doc)
	}
	return m
}

// contains reports whether field contains the filter text, ignoring case.
func contains(field, filter string) bool {
	return strings.Contains(strings.ToLower(field), strings.ToLower(filter))
}
