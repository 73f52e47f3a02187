package chart

import (
	"context"
	"encoding/json"
	"fmt"

	"boardbench/internal/result"
)

// sustainedPlots draws the sustained-write test: the rate of each window
// against what was written, in MB/s (10^6 bytes) against MiB, with the fall
// (the end of the write cache) marked.
func sustainedPlots(ctx context.Context, r *result.Result, board string) ([]named, error) {
	var out []named
	for _, ph := range r.Phases {
		if ph.Name != result.PhaseStorageSustained || len(ph.Figures) == 0 {
			continue
		}
		if err := stopped(ctx); err != nil {
			return nil, err
		}
		var f result.StorageSustainedFigures
		if json.Unmarshal(ph.Figures, &f) != nil || len(f.Windows) == 0 {
			continue
		}
		var ps []pt
		for _, w := range f.Windows {
			if finite(w.KBs) && w.KBs >= 0 {
				ps = append(ps, pt{X: float64(w.WrittenBytes) / (1 << 20), Y: w.KBs * 1024 / 1e6})
			}
		}
		if len(ps) == 0 {
			continue
		}
		title := "Sustained writes — " + board
		fig := lineFigure("written (MiB)", "rate (MB/s)", []line{{label: "write rate per window", segments: [][]pt{ps}}})
		fig.y.zero = true
		if f.Fell && f.CacheBytes != nil {
			fig.marks = append(fig.marks, mark{X: float64(*f.CacheBytes) / (1 << 20), label: fmt.Sprintf("rate fell after %s", sizeText(*f.CacheBytes)), kind: markFound})
			fig.markLegend = append(fig.markLegend, legendItem{label: "where the rate fell (end of the write cache)", kind: "mark-found"})
		}
		out = append(out, named{"storage-sustained", title, fig})
	}
	return out, nil
}

type storageTest struct {
	label string
	get   func(result.StorageRow) *float64
}

// storageTests are the columns of the storage table, in its order.
func storageTests() []storageTest {
	return []storageTest{
		{"write", func(r result.StorageRow) *float64 { return r.WriteKBs }},
		{"rewrite", func(r result.StorageRow) *float64 { return r.RewriteKBs }},
		{"read", func(r result.StorageRow) *float64 { return r.ReadKBs }},
		{"reread", func(r result.StorageRow) *float64 { return r.RereadKBs }},
		{"random read", func(r result.StorageRow) *float64 { return r.RandomReadKBs }},
		{"random write", func(r result.StorageRow) *float64 { return r.RandomWriteKBs }},
	}
}

// storagePlots draws the storage phase's iozone-style table as grouped
// bars: one group per record size, one bar per test, in MB/s (10^6
// bytes per second; the table keeps KiB/s).
func storagePlots(ctx context.Context, r *result.Result, board string) ([]named, error) {
	var out []named
	for _, ph := range r.Phases {
		if ph.Name != result.PhaseStorage || len(ph.Figures) == 0 {
			continue
		}
		if err := stopped(ctx); err != nil {
			return nil, err
		}
		var f result.StorageFigures
		if json.Unmarshal(ph.Figures, &f) != nil || len(f.Table) == 0 {
			continue
		}
		storageTests := storageTests()
		bs := &barSet{}
		used := make([]bool, len(storageTests))
		for _, row := range f.Table {
			for i, t := range storageTests {
				if v := t.get(row); v != nil && finite(*v) {
					used[i] = true
				}
			}
		}
		var cols []int
		for i, t := range storageTests {
			if used[i] {
				cols = append(cols, i)
				bs.series = append(bs.series, t.label)
			}
		}
		if len(cols) == 0 {
			continue
		}
		for _, row := range f.Table {
			bs.categories = append(bs.categories, sizeText(int64(row.RecordKiB)<<10))
			vals := make([]*float64, len(cols))
			for k, i := range cols {
				if v := storageTests[i].get(row); v != nil && finite(*v) {
					mb := *v * 1024 / 1e6
					vals[k] = &mb
				}
			}
			bs.values = append(bs.values, vals)
		}
		title := "Storage throughput by record size — " + board
		fig := &figure{x: axis{label: "record size"}, y: axis{label: "throughput (MB/s)"}, bars: bs}
		if !f.Direct {
			fig.notes = append(fig.notes, "not O_DIRECT: the figures are the page cache's")
		}
		if f.Dir != "" {
			fig.notes = append(fig.notes, "measured in "+f.Dir)
		}
		out = append(out, named{"storage-table", title, fig})
	}
	return out, nil
}
