package serve

import (
	"bytes"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/serve/page"
	"boardbench/internal/store"
)

// parseCompare checks the compare page's parameters: 2 to MaxCompare
// distinct result ids.
func parseCompare(v map[string][]string) ([]string, error) {
	for name := range v {
		if name != "id" {
			return nil, fmt.Errorf("unknown parameter %q", name)
		}
	}
	var ids []string
	for _, id := range v["id"] {
		if !ValidID(id) {
			return nil, fmt.Errorf("id: a result id is 8 to 64 lowercase hexadecimal digits")
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	if len(ids) < 2 || len(ids) > MaxCompare {
		return nil, fmt.Errorf("compare takes 2 to %d different results (id=...&id=...)", MaxCompare)
	}
	return ids, nil
}

func (s *Server) compare(w http.ResponseWriter, r *http.Request) {
	ids, err := parseCompare(r.URL.Query())
	if err != nil {
		s.badRequest(w, err.Error())
		return
	}
	recs := make([]store.Record, 0, len(ids))
	for _, id := range ids {
		rc, err := s.cfg.Store.Record(r.Context(), id)
		if err != nil {
			s.storeError(w, r, err)
			return
		}
		recs = append(recs, rc)
	}
	c := BuildCompare(recs)
	s.render(w, r, func(b *bytes.Buffer) error { return page.WriteCompare(b, c) })
}

// BuildCompare lays out records side by side: the conditions first (those
// that differ at the top), then the headline figures (the published
// table's first), then every other figure.
func BuildCompare(recs []store.Record) page.Compare {
	var c page.Compare
	for _, rc := range recs {
		c.Results = append(c.Results, page.CompareResult{ID: rc.ID, Device: rowOf(rc).Device, Date: rc.CreatedAt.UTC().Format("2006-01-02 15:04")})
	}
	row := func(name string, value func(store.Record) string) page.CompareRow {
		cr := page.CompareRow{Name: name}
		for _, rc := range recs {
			cr.Values = append(cr.Values, value(rc))
		}
		for _, v := range cr.Values[1:] {
			cr.Differs = cr.Differs || v != cr.Values[0]
		}
		return cr
	}
	conds := []page.CompareRow{
		row("board", func(r store.Record) string { return r.Board }),
		row("SoC", func(r store.Record) string { return r.SoC }),
		row("core types", func(r store.Record) string { return r.CoreTypes }),
		row("kernel", func(r store.Record) string { return r.Kernel }),
		row("distribution", func(r store.Record) string { return r.Distro }),
		row("userland", func(r store.Record) string { return r.Arch }),
		row("kind", func(r store.Record) string { return r.Kind }),
		row("status", func(r store.Record) string { return r.Status }),
		row("valid", func(r store.Record) string { return strconv.FormatBool(r.Valid) }),
		row("findings", func(r store.Record) string { return strings.Join(r.FindingIDs, ", ") }),
	}
	tools := map[string]bool{}
	for _, rc := range recs {
		for t := range rc.Tools {
			tools[t] = true
		}
	}
	for _, t := range slices.Sorted(maps.Keys(tools)) {
		conds = append(conds, row("tool "+t, func(r store.Record) string { return r.Tools[t] }))
	}
	slices.SortStableFunc(conds, func(a, b page.CompareRow) int {
		switch {
		case a.Differs == b.Differs:
			return 0
		case a.Differs:
			return -1
		}
		return 1
	})
	c.Rows = conds
	seen := map[string]bool{}
	figRow := func(name string) {
		if seen[name] {
			return
		}
		seen[name] = true
		c.Rows = append(c.Rows, row(name, func(r store.Record) string {
			v, ok := r.Figures[name]
			if !ok {
				return "-"
			}
			return strconv.FormatFloat(v, 'f', -1, 64)
		}))
	}
	for _, col := range Columns {
		if col.Numeric {
			figRow(col.StoreSort)
		}
	}
	names := map[string]bool{}
	for _, rc := range recs {
		for n := range rc.Figures {
			names[n] = true
		}
	}
	for _, n := range slices.Sorted(maps.Keys(names)) {
		figRow(n)
	}
	return c
}
