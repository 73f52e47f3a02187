package chart

import (
	"fmt"
	"strings"

	"boardbench/internal/reference"
	"boardbench/internal/result"
)

// Item is one result of a comparison and the label it is shown with (a
// file name, a store id).
type Item struct {
	Label  string
	Result *result.Result
}

// headline is one headline figure a comparison draws.
type headline struct {
	key, label, unit string
	get              func(*result.Result) *float64
}

// headlines are the figures Compare draws: the headline figures of `run`
// (reference.Figures: per-core figures are those of the fastest core
// type) and those of `storage`.
func headlines() []headline {
	var out []headline
	for _, f := range reference.Figures() {
		key := f.Key
		out = append(out, headline{key, f.Label, f.Unit, func(r *result.Result) *float64 {
			if v, ok := reference.FiguresOf(r.Summary)[key]; ok {
				return &v
			}
			return nil
		}})
	}
	storage := func(get func(*result.StorageSummary) *float64) func(*result.Result) *float64 {
		return func(r *result.Result) *float64 {
			if r.Summary.StorageSummary == nil {
				return nil
			}
			return get(r.Summary.StorageSummary)
		}
	}
	return append(out,
		headline{"seq_read_mb_s", "storage sequential read", "MB/s", storage(func(s *result.StorageSummary) *float64 { return s.SeqReadMBs })},
		headline{"seq_write_mb_s", "storage sequential write", "MB/s", storage(func(s *result.StorageSummary) *float64 { return s.SeqWriteMBs })},
		headline{"rand_read_4k_iops", "storage 4 KiB random read", "IOPS", storage(func(s *result.StorageSummary) *float64 { return s.RandRead4kIOPS })},
		headline{"rand_write_4k_iops", "storage 4 KiB random write", "IOPS", storage(func(s *result.StorageSummary) *float64 { return s.RandWrite4kIOPS })},
	)
}

// Compare draws each headline figure of the results side by side: one
// chart of bars per figure that at least one of them has, one bar per
// result in their order (the first is the base of a comparison), named
// "compare-KEY" ("compare-sevenzip-multi-mips"). A result without the
// figure gets "unknown" instead of a bar. Nil results are left out.
func Compare(items []Item) ([]Chart, error) {
	var rs []Item
	for _, it := range items {
		if it.Result != nil {
			rs = append(rs, it)
		}
	}
	labels := compareLabels(rs)
	var out []Chart
	for _, h := range headlines() {
		bs := &barSet{horizontal: true, series: []string{h.label}}
		any := false
		for i, it := range rs {
			v := h.get(it.Result)
			if v != nil && finite(*v) {
				any = true
			}
			bs.categories = append(bs.categories, labels[i])
			bs.values = append(bs.values, []*float64{v})
		}
		if !any {
			continue
		}
		title := fmt.Sprintf("%s (%s) — %d results", h.label, h.unit, len(rs))
		fig := &figure{x: axis{label: h.label + " (" + h.unit + ")"}, bars: bs}
		n := named{"compare-" + slug(h.key), title, fig}
		out = append(out, Chart{Name: n.name, Title: title, SVG: n.svg()})
	}
	return out, nil
}

// compareLabels names each result by its label and its board, numbered
// when two would read the same.
func compareLabels(items []Item) []string {
	out := make([]string, len(items))
	seen := map[string]int{}
	for i, it := range items {
		l := strings.TrimSpace(it.Label)
		b := Board(it.Result)
		switch {
		case l == "":
			l = b
		case b != "unknown machine":
			l += " — " + b
		}
		out[i] = l
		seen[l]++
	}
	for i := range out {
		if seen[out[i]] > 1 {
			out[i] = fmt.Sprintf("%d. %s", i+1, out[i])
		}
	}
	return out
}
