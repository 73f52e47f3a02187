package serve

import (
	"bytes"
	"fmt"
	"net/http"
	"slices"

	"boardbench/internal/compare"
	"boardbench/internal/result"
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
		if !store.ValidID(id) {
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
	v, err := queryValues(r)
	if err != nil {
		s.badRequest(w, err.Error())
		return
	}
	ids, err := parseCompare(v)
	if err != nil {
		s.badRequest(w, err.Error())
		return
	}
	in := make([]compare.Input, 0, len(ids))
	for _, id := range ids {
		doc, err := s.cfg.Store.Get(r.Context(), id)
		if err != nil {
			s.storeError(w, r, err)
			return
		}
		res, err := result.Parse(doc)
		if err != nil {
			s.logf("result %s: %v", id, err)
			s.errorPage(w, http.StatusInternalServerError, "Unreadable result", "A stored document is not a result this boardbench reads: /results/"+id+".json.")
			return
		}
		if res.ID == "" {
			res.ID = id
		}
		in = append(in, compare.Input{Label: id, Result: res, Doc: doc})
	}
	cmp, err := compare.Compare(in)
	if err != nil {
		s.badRequest(w, err.Error())
		return
	}
	c := BuildCompare(cmp)
	s.render(w, r, func(b *bytes.Buffer) error { return page.WriteCompare(b, c) })
}

// BuildCompare lays out a comparison for the page: the conditions (those
// that differ first, as compare orders them), then every figure with its
// change from the first result, and the text comparison below.
func BuildCompare(cmp *compare.Comparison) page.Compare {
	var c page.Compare
	for _, col := range cmp.Results {
		dev := col.Board
		if dev == "" {
			dev = "unknown"
		}
		c.Results = append(c.Results, page.CompareResult{ID: col.ID, Device: dev, Date: col.CreatedAt.UTC().Format("2006-01-02 15:04")})
	}
	for _, cond := range cmp.Conditions {
		c.Rows = append(c.Rows, page.CompareRow{Name: cond.Name, Values: cond.Values, Differs: cond.Differs})
	}
	for _, f := range cmp.Figures {
		row := page.CompareRow{Name: f.Label()}
		for i := range f.Values {
			row.Values = append(row.Values, f.Cell(i))
		}
		c.Rows = append(c.Rows, row)
	}
	c.Notes = cmp.Notes
	var text bytes.Buffer
	cmp.WriteText(&text)
	c.Text = text.String()
	return c
}
