package serve

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"boardbench/internal/serve/servetest"
	"boardbench/internal/store"
)

// boundedStore counts as a SQL store does with Query.CountUpTo: a total
// above the bound is given as the bound plus one.
type boundedStore struct {
	*servetest.MemStore
	asked []int
}

func (b *boundedStore) List(ctx context.Context, q store.Query) ([]store.Record, int, error) {
	if q.Limit > 0 { // a page of the table (not the SoC menu's whole list)
		b.asked = append(b.asked, q.CountUpTo)
	}
	recs, total, err := b.MemStore.List(ctx, q)
	if q.CountUpTo > 0 && total > q.CountUpTo && !store.TotalKept(q) {
		total = q.CountUpTo + 1
	}
	return recs, total, err
}

// TestTableBoundedTotal checks the table of a filter whose total was
// counted only up to CountUpTo: "more than", no last page, and a next
// page while pages are full.
func TestTableBoundedTotal(t *testing.T) {
	st := &boundedStore{MemStore: servetest.Fill(CountUpTo + 120)}
	h := New(Config{Store: st}).Handler()
	for _, c := range []struct {
		target   string
		more     bool
		nextPage string
	}{
		{"/?per=500&kernel=.", true, "page=2"},
		{"/?per=500&kernel=.&page=3", true, ""},       // 120 rows: the last page
		{"/?per=500&kernel=.&page=2", true, "page=3"}, // full: a next page may hold more
		{"/?per=500&kernel=.&page=9", true, ""},       // past the end
		{"/?per=500&page=2", false, "page=3"},         // unfiltered: the kept total is exact
		{"/?per=500&soc=R&valid=1", false, "page=2"},  // so are the SoC and validity filters'
	} {
		body := get(t, h, c.target).Body.String()
		if more := strings.Contains(body, "more than 1000 results"); more != c.more {
			t.Errorf("%s: 'more than' shown %v, want %v", c.target, more, c.more)
		}
		if lastShown := regexp.MustCompile(`<span>page \d+ of \d+</span>`).MatchString(body); lastShown == c.more {
			t.Errorf("%s: last page number shown %v for a total that is bounded %v", c.target, lastShown, c.more)
		}
		next := strings.Contains(body, `rel="next"`)
		if next != (c.nextPage != "") || next && !strings.Contains(body, c.nextPage) {
			t.Errorf("%s: next link %v, want %q", c.target, next, c.nextPage)
		}
	}
	if len(st.asked) == 0 {
		t.Fatal("no page was asked for")
	}
	for _, n := range st.asked {
		if n != CountUpTo {
			t.Errorf("the table asked for totals up to %d, want %d", n, CountUpTo)
		}
	}
}
