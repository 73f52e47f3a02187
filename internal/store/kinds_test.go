package store

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"testing"
	"time"
)

func TestKinds(t *testing.T) {
	st, _ := openTemp(t)
	testKinds(t, st)
}

func TestPostgresKinds(t *testing.T) {
	spec := pgDatabase(t)
	if spec == "" {
		return
	}
	testKinds(t, openPG(t, spec))
}

// testKinds checks Query.Kinds (any of several kinds) in lists, kept
// totals and figure sorts, and the Kinds menu, on st.
func testKinds(t *testing.T, st Store) {
	ctx := context.Background()
	for i, k := range []struct{ id, command string }{{"k1", "run"}, {"k2", "c2c"}, {"k3", "import"}, {"k4", "mem"}, {"k5", "run"}} {
		r := testResult(k.id, "Board "+k.id, "Rockchip RK3588", "6.1.0", float64(1000*(i+1)), t0.Add(time.Duration(i)*time.Hour))
		r.Command = k.command
		if _, _, err := st.Put(ctx, mustJSON(t, r)); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name  string
		q     Query
		want  []string
		total int
	}{
		{"run and import", Query{Kinds: []string{"run", "import"}}, []string{"k5", "k3", "k1"}, 3},
		{"one of Kinds", Query{Kinds: []string{"c2c"}}, []string{"k2"}, 1},
		{"Kind wins over Kinds", Query{Kind: "mem", Kinds: []string{"run"}}, []string{"k4"}, 1},
		{"figure sort", Query{Kinds: []string{"run", "import"}, Sort: "sevenzip_multi_mips", Desc: true}, []string{"k5", "k3", "k1"}, 3},
		{"page", Query{Kinds: []string{"run", "import"}, Offset: 1, Limit: 1}, []string{"k3"}, 3},
		{"counted with a substring filter", Query{Kinds: []string{"run", "import"}, Board: "board", CountUpTo: 10}, []string{"k5", "k3", "k1"}, 3},
	} {
		recs, total, err := st.List(ctx, tc.q)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		var ids []string
		for _, r := range recs {
			ids = append(ids, r.ID)
		}
		if !slices.Equal(ids, tc.want) || total != tc.total {
			t.Errorf("%s: got %q (total %d), want %q (total %d)", tc.name, ids, total, tc.want, tc.total)
		}
	}
	kinds, err := Kinds(ctx, st)
	if err != nil || !slices.Equal(kinds, []string{"c2c", "import", "mem", "run"}) {
		t.Errorf("Kinds = %q, %v", kinds, err)
	}
}

// TestKindsPlan: on SQLite, a page of the default kinds is read in the
// order index's order, never by the kind index and a sort of every
// selected result (which made a deep page three times slower).
func TestKindsPlan(t *testing.T) {
	st, _ := openTemp(t)
	s := st.(*sqlStore)
	q := Query{Kinds: []string{"run", "import"}, Limit: 50, Offset: 7000}
	cond, args := s.filter(q)
	rows, err := s.db.QueryContext(context.Background(), `EXPLAIN QUERY PLAN SELECT r.id, r.created_at FROM results r WHERE `+cond+
		` ORDER BY r.created_at DESC, r.id DESC LIMIT 50 OFFSET 7000`, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if len(plan) != 1 || plan[0] != "SCAN r USING COVERING INDEX results_order" {
		t.Errorf("plan %q, want one scan of the covering order index", plan)
	}
}

// TestPostgresKindsEstimate: on PostgreSQL the default kinds are written
// on the bare kind column, whose statistics the planner has. On the
// kind concatenated with an empty text it assumed 1 % of them matched,
// chose a parallel scan and sorted every result for a deep page
// (/?page=2000 at 1,000,000 results: 1.36 s instead of 61 ms). The
// planner's estimate of the rows the condition selects must be near the
// truth once the table is analysed.
func TestPostgresKindsEstimate(t *testing.T) {
	spec := pgDatabase(t)
	if spec == "" {
		return
	}
	st := openPG(t, spec)
	ctx := context.Background()
	const n = 400
	var docs [][]byte
	for i := range n {
		r := testResult(fmt.Sprintf("e%03d", i), "Board", "Rockchip RK3588", "6.1.0", float64(1000+i), t0.Add(time.Duration(i)*time.Minute))
		docs = append(docs, mustJSON(t, r))
	}
	if _, err := PutAll(ctx, st, docs); err != nil {
		t.Fatal(err)
	}
	s := st.(*sqlStore)
	if _, err := s.db.ExecContext(ctx, `ANALYZE results`); err != nil {
		t.Fatal(err)
	}
	cond, args := s.filter(Query{Kinds: []string{"run", "import"}})
	var plan string
	if err := s.queryRow(ctx, s.q(`EXPLAIN SELECT r.id FROM results r WHERE `+cond), args...).Scan(&plan); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(` rows=(\d+) `).FindStringSubmatch(plan)
	if m == nil {
		t.Fatalf("no row estimate in %q", plan)
	}
	if est, _ := strconv.Atoi(m[1]); est < n/2 {
		t.Errorf("PostgreSQL estimates %d of %d results for %s (plan %q): the kind condition hides the column's statistics", est, n, cond, plan)
	}
}
