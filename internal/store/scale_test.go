package store

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// The paths of schema 5 (sqlquery.go: pages found from the indexes, the
// figure sort in two parts, id prefixes as byte ranges, totals from
// result_counts or counted up to a bound, the SoC menu from the counts)
// must select and order exactly what the plain definition of a Query
// does. These tests compare them with a brute-force filter and sort of
// every stored record, on SQLite (both drivers: go test -tags board) and
// PostgreSQL.

// scaleBase is the first result's start time.
var scaleBase = time.Date(2024, 3, 1, 0, 0, 0, 0, time.UTC)

// fillVaried stores n results with repeated boards, SoCs and kernels in
// several cases, tied dates and figures, missing figures, invalid
// results, replays and tags, and returns their ids.
func fillVaried(t *testing.T, st Store, n int) []string {
	t.Helper()
	ctx := context.Background()
	boards := []string{"Radxa ROCK 5B", "rock 5b plus", "Raspberry Pi 5 Model B", "Orange Pi 5", "ÜNÏCODE Board", "Khadas VIM3"}
	socs := []string{"Rockchip RK3588", "rockchip rk3588s", "BCM2712", "Allwinner H616", "", "Amlogic A311D"}
	kernels := []string{"6.1.0-rk", "6.6.20", "5.10.160", "6.6.31-current"}
	var ids []string
	for i := 0; i < n; i++ {
		at := scaleBase.Add(time.Duration(i%97) * time.Hour) // ties: i and i+97
		r := testResult(fmt.Sprintf("%08x%024x", i*2654435761%(1<<32), i), boards[i%len(boards)], socs[(i/2)%len(socs)],
			kernels[i%len(kernels)], float64((i*37)%101), at)
		if i%7 == 0 {
			r.Summary.SevenZipMultiMIPS = nil // no figure: sorted last
		}
		r.Summary.Valid = i%5 != 0
		r.Replay = i%11 == 0
		doc := mustJSON(t, r)
		id, _, err := st.Put(ctx, doc)
		if err != nil {
			t.Fatal(err)
		}
		if i%3 == 0 {
			if err := st.Tag(ctx, id, "lab"); err != nil {
				t.Fatal(err)
			}
		}
		ids = append(ids, id)
	}
	return ids
}

// bruteForce returns the ids q selects from all, in q's order, and their
// number before the page.
func bruteForce(all []Record, q Query) ([]string, int) {
	has := func(field, v string) bool {
		return v == "" || strings.Contains(strings.ToLower(field), strings.ToLower(v))
	}
	var sel []Record
	for _, r := range all {
		switch {
		case !has(r.Board, q.Board), !has(r.SoC, q.SoC), !has(r.Kernel, q.Kernel), !has(r.CoreTypes, q.CoreType):
		case q.Kind != "" && r.Kind != q.Kind, q.Kind == "" && q.IDPrefix == "" && r.Kind == KindReplay:
		case q.Kind == "" && len(q.Kinds) > 0 && !slices.Contains(q.Kinds, r.Kind):
		case !strings.HasPrefix(r.ID, q.IDPrefix):
		case q.Tag != "" && !slices.Contains(r.Tags, q.Tag):
		case q.Text != "" && !slices.ContainsFunc([]string{r.Board, r.SoC, r.Kernel, r.Distro, r.Host}, func(f string) bool { return has(f, q.Text) }):
		case !q.Since.IsZero() && r.CreatedAt.Before(q.Since):
		case q.ValidOnly && !r.Valid:
		default:
			sel = append(sel, r)
		}
	}
	dir := 1
	if q.Desc {
		dir = -1
	}
	slices.SortFunc(sel, func(a, b Record) int {
		var c int
		switch q.Sort {
		case "":
			return -cmp.Or(a.CreatedAt.Compare(b.CreatedAt), strings.Compare(a.ID, b.ID))
		case "created_at":
			c = a.CreatedAt.Compare(b.CreatedAt)
		case "id":
			c = 0
		case "board":
			c = strings.Compare(a.Board, b.Board)
		case "valid":
			c = cmp.Compare(boolInt(a.Valid), boolInt(b.Valid))
		default:
			av, aok := a.Figures[q.Sort]
			bv, bok := b.Figures[q.Sort]
			if aok != bok { // missing last, in either direction
				if aok {
					return -1
				}
				return 1
			}
			c = cmp.Compare(av, bv)
		}
		return dir * cmp.Or(c, strings.Compare(a.ID, b.ID))
	})
	total := len(sel)
	sel = sel[min(q.Offset, len(sel)):]
	if q.Limit > 0 && len(sel) > q.Limit {
		sel = sel[:q.Limit]
	}
	var ids []string
	for _, r := range sel {
		ids = append(ids, r.ID)
	}
	return ids, total
}

// scaleQueries are the queries compared: every filter, sort and page
// kind serve and results use, alone and combined.
func scaleQueries(ids []string, textSorts bool) []Query {
	since := scaleBase.Add(48 * time.Hour)
	qs := []Query{
		{}, {Limit: 10}, {Limit: 10, Offset: 25}, {Limit: 7, Offset: 300}, {Offset: 5},
		{SoC: "rk3588"}, {SoC: "RK3588", Limit: 5, Offset: 3}, {SoC: "rk3588", ValidOnly: true, Limit: 4, Offset: 2},
		{Board: "rock 5b"}, {Board: "ünï"}, {Kernel: "6.6"}, {CoreType: "a76", Limit: 9, Offset: 9},
		{Text: "pi 5"}, {Text: "BCM"}, {Text: "bench-khadas"}, {Text: "100%_"}, {Tag: "lab", Limit: 6, Offset: 6},
		{Kind: KindReplay}, {ValidOnly: true, Limit: 10, Offset: 40}, {Since: since, Limit: 8},
		{IDPrefix: ids[3][:3]}, {IDPrefix: ids[5]}, {IDPrefix: "zz"},
		{Sort: "sevenzip_multi_mips", Desc: true, Limit: 10},
		{Sort: "sevenzip_multi_mips", Desc: true},
		{Sort: "sevenzip_multi_mips"},
		{Sort: "sevenzip_multi_mips", Desc: true, Limit: 20, Offset: 160},
		{Sort: "sevenzip_multi_mips", Limit: 20, Offset: 180},
		{Sort: "sevenzip_multi_mips", Desc: true, Limit: 5, Offset: 200},
		{Sort: "sevenzip_multi_mips", Offset: 170},
		{Sort: "no_such_figure", Limit: 5, Offset: 3},
		{Sort: "sevenzip_single_mips.max", Desc: true, Limit: 12, Offset: 12},
		{SoC: "rk3588", Sort: "sevenzip_multi_mips", Desc: true, Limit: 5, Offset: 5},
		{SoC: "rk3588", Board: "5b", Sort: "sevenzip_multi_mips", Desc: true, Limit: 5, Offset: 40},
		{SoC: "bcm", ValidOnly: true, Sort: "sevenzip_multi_mips", Limit: 6, Offset: 4},
		{Kind: KindReplay, Sort: "sevenzip_multi_mips", Desc: true, Limit: 3, Offset: 1},
		{Tag: "lab", Sort: "sevenzip_multi_mips", Desc: true, Limit: 8, Offset: 30},
		{Sort: "created_at", Limit: 10, Offset: 100}, {Sort: "created_at", Desc: true, Limit: 10, Offset: 100},
		// Filtered deep pages (schema 7: SoC by SoC, figure rows joined
		// to the SoCs' results), last and past-the-end pages, filters
		// that match nothing, and hostile filter text.
		{SoC: "rk3588", Sort: "created_at", Desc: true, Limit: 10, Offset: 40}, {SoC: "rk3588", Sort: "created_at", Limit: 10, Offset: 40},
		{SoC: "bcm", Sort: "created_at", ValidOnly: true}, {SoC: "rk3588", Sort: "board", Limit: 5, Offset: 5},
		{SoC: "rk3588", Limit: 10, Offset: 60}, {SoC: "rk3588", Limit: 10, Offset: 75}, {SoC: "rk3588", Limit: 10, Offset: 80},
		{SoC: "rk3588s", Limit: 7, Offset: 30}, {SoC: "bcm2712", ValidOnly: true, Limit: 5, Offset: 25},
		{SoC: "RK3588", Kernel: "6.1", Limit: 5, Offset: 10}, {SoC: "rk3588", Text: "pi 5", Limit: 5},
		{SoC: "a", Limit: 9, Offset: 50}, {SoC: "no such soc", Limit: 5}, {SoC: "no such soc", Sort: "sevenzip_multi_mips", Limit: 5, Offset: 5},
		{SoC: "rk3588", Sort: "sevenzip_single_mips.cpu4", Desc: true, Limit: 10, Offset: 50},
		{SoC: "rk3588s", Sort: "sevenzip_single_mips.cpu4", Limit: 10, Offset: 20}, {SoC: "rk3588", Kernel: "6", Sort: "sevenzip_single_mips.cpu0", Limit: 10, Offset: 30},
		{SoC: "rk3588", ValidOnly: true, Sort: "sevenzip_multi_mips", Limit: 10, Offset: 30},
		// Across and past the end of the results that have the figure.
		{SoC: "rk3588", Sort: "sevenzip_multi_mips", Limit: 10, Offset: 58}, {SoC: "rk3588", Sort: "sevenzip_multi_mips", Desc: true, Limit: 5, Offset: 64},
		{SoC: "rk3588", Sort: "sevenzip_multi_mips", Limit: 3, Offset: 68}, {SoC: "rk3588s", Sort: "sevenzip_multi_mips", Desc: true, Limit: 4, Offset: 31},
		{SoC: "rk3588", Kernel: "6", Sort: "sevenzip_multi_mips", Limit: 5, Offset: 60},
		{SoC: "rk3588", Sort: "sevenzip_multi_mips", Desc: true, Limit: 10, Offset: 50},
		{SoC: "rk3588", Sort: "sevenzip_multi_mips", Limit: 10, Offset: 60},
		{SoC: "rk3588", Sort: "sevenzip_multi_mips", Desc: true, Limit: 10, Offset: 200},
		{SoC: "rk3588", Kernel: "6.6", Sort: "sevenzip_multi_mips", Desc: true, Limit: 4, Offset: 12},
		{SoC: "bcm", ValidOnly: true, Sort: "sevenzip_single_mips.max", Limit: 6, Offset: 20},
		{SoC: "rk3588", Kind: KindReplay, Limit: 3, Offset: 2}, {SoC: "rk3588", Kind: KindReplay, Sort: "sevenzip_multi_mips", Limit: 3, Offset: 3},
		{Text: "raspberry", Limit: 10, Offset: 25}, {Kernel: "6.6", Limit: 10, Offset: 50}, {CoreType: "a55", ValidOnly: true, Limit: 10, Offset: 60},
		{Text: "raspberry", Sort: "sevenzip_multi_mips", Desc: true, Limit: 10, Offset: 20},
		{Text: "raspberry", Sort: "sevenzip_multi_mips", Desc: true, Limit: 1000, Offset: 20},
		{Kernel: "6.6", Sort: "sevenzip_multi_mips", Limit: 990, Offset: 11}, {Kernel: "6.6", Sort: "sevenzip_multi_mips", Limit: 995, Offset: 20},
		{Text: "bench", Tag: "lab", Sort: "sevenzip_single_mips.max", Limit: 1000, Offset: 1},
		// Headline figures under filters their rows in
		// result_figure_filters carry (migration 8), in both directions,
		// deep, past the results that have the figure, with serve's
		// default kinds.
		{Kinds: []string{"run", "import"}, Text: "raspberry", Sort: "sevenzip_multi_mips", Desc: true, Limit: 10, Offset: 20},
		{Kinds: []string{"run", "import"}, Kernel: "6.6", Sort: "sevenzip_multi_mips", Limit: 10, Offset: 30},
		{Board: "rock", Sort: "aes256_16k.max", Desc: true, Limit: 5, Offset: 5},
		{CoreType: "a76", Sort: "clock_mhz.max", Limit: 10, Offset: 20},
		{Since: scaleBase.Add(50 * time.Hour), Sort: "sevenzip_multi_mips", Desc: true, Limit: 10, Offset: 10},
		{Text: "pi 5", ValidOnly: true, Sort: "memcpy_mb_s.max", Desc: true, Limit: 5, Offset: 2},
		{Kernel: "6.6", Sort: "sevenzip_multi_mips", Limit: 10, Offset: 100},
		{Kernel: "6.6", Sort: "sevenzip_multi_mips", Desc: true, Offset: 50},
		{SoC: "a", Text: "pi", Sort: "sevenzip_multi_mips", Desc: true, Limit: 5, Offset: 3},
		{Text: "orange", Sort: "sevenzip_single_mips.max", Limit: 2000, Offset: 5},
		{SoC: "%"}, {SoC: "_"}, {SoC: `\`}, {SoC: "'"}, {SoC: `"`}, {SoC: "rk%88", Limit: 5}, {SoC: "rk_588"},
		{Text: "%", Limit: 5}, {Text: "_"}, {Text: `\`}, {Text: "'; DROP TABLE results; --"}, {Text: `"`},
		{Kernel: "6._"}, {Kernel: "%"}, {CoreType: `a7\`}, {Board: "'"}, {Board: "ünï%"},
		{Sort: "valid", Desc: true, Limit: 15, Offset: 20}, {Sort: "id", Limit: 5, Offset: 7},
	}
	if textSorts {
		// Text order is the database's collation: byte order in SQLite.
		qs = append(qs, Query{Sort: "board", Limit: 10, Offset: 30}, Query{Sort: "board", Desc: true})
	}
	return qs
}

func testScaleQueries(t *testing.T, st Store, textSorts bool) {
	ctx := context.Background()
	ids := fillVaried(t, st, 240)
	// Remove a few: the counts must follow.
	for _, id := range ids[200:205] {
		if err := st.Remove(ctx, id); err != nil {
			t.Fatal(err)
		}
	}
	ids = append(ids[:200:200], ids[205:]...)
	check := func(t *testing.T) {
		var all []Record
		for _, id := range ids {
			r, err := st.Record(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			all = append(all, r)
		}
		for _, q := range scaleQueries(ids, textSorts) {
			want, wantTotal := bruteForce(all, q)
			recs, total, err := st.List(ctx, q)
			if err != nil {
				t.Fatalf("%+v: %v", q, err)
			}
			var got []string
			for _, r := range recs {
				got = append(got, r.ID)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%+v:\n got %d %v\nwant %d %v", q, len(got), got, len(want), want)
			}
			if total != wantTotal {
				t.Errorf("%+v: total %d, want %d", q, total, wantTotal)
			}
			var each []string
			q.Offset, q.Limit = 0, 0
			if err := Each(ctx, st, q, func(r Record) error { each = append(each, r.ID); return nil }); err != nil {
				t.Fatal(err)
			}
			if wantAll, _ := bruteForce(all, q); !slices.Equal(each, wantAll) {
				t.Errorf("Each %+v: %d records, want %d", q, len(each), len(wantAll))
			}
		}
		// A bounded count: exact up to the bound, bound+1 beyond it,
		// exact whatever the bound where the store keeps the total.
		for _, c := range []struct {
			q    Query
			kept bool
		}{
			{Query{Board: "rock", Limit: 3}, false}, {Query{Text: "pi", Limit: 3}, false}, {Query{Board: "no such board", Limit: 3}, false},
			{Query{SoC: "rk", Limit: 3}, true}, {Query{Limit: 3}, true}, {Query{ValidOnly: true, Limit: 3}, true},
		} {
			_, exact := bruteForce(all, c.q)
			for _, bound := range []int{1, 5, exact, exact + 3} {
				q := c.q
				q.CountUpTo = bound
				_, total, err := st.List(ctx, q)
				if err != nil {
					t.Fatal(err)
				}
				want := exact
				if !c.kept && bound > 0 && exact > bound {
					want = bound + 1
				}
				if total != want {
					t.Errorf("%+v: total %d, want %d (exactly %d)", q, total, want, exact)
				}
			}
		}
		var socs []string
		for _, r := range all {
			if r.Kind != KindReplay && r.SoC != "" {
				socs = append(socs, r.SoC)
			}
		}
		slices.Sort(socs)
		socs = slices.Compact(socs)
		got, err := SoCs(ctx, st)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, socs) {
			t.Errorf("SoCs: %q, want %q", got, socs)
		}
	}
	check(t)
	if t.Failed() {
		return
	}
	// A store migrated to this version counts what it held before:
	// derive the counts again and compare.
	if s, ok := st.(*sqlStore); ok {
		tx, err := s.begin(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM result_counts`); err != nil {
			t.Fatal(err)
		}
		if err := s.reindex(ctx, tx); err != nil {
			t.Fatal(err)
		}
		if err := tx.Commit(); err != nil {
			t.Fatal(err)
		}
		check(t)
	}
}

func TestScaleQueriesSQLite(t *testing.T) {
	st, _ := openTemp(t)
	testScaleQueries(t, st, true)
}

func TestScaleQueriesPostgres(t *testing.T) {
	testScaleQueries(t, openPG(t, pgDatabase(t)), false)
}

// TestScaleQueriesSoCPaths runs the queries with each path a SoC filter
// can take: SoC filters that match more SoCs than the store walks one
// by one (here: more than one) take the substring path; and figure sorts
// walked SoC by SoC always join the SoCs' results (at this size the
// cost rule would walk the figure index).
func TestScaleQueriesSoCPaths(t *testing.T) {
	for _, c := range []struct {
		name     string
		branches int
		join     bool
	}{
		{"sqlite-substring", 1, false}, {"sqlite-join", 0, true},
		{"postgres-substring", 1, false}, {"postgres-join", 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			var st Store
			sqlite := strings.HasPrefix(c.name, "sqlite")
			if sqlite {
				st, _ = openTemp(t)
			} else {
				st = openPG(t, pgDatabase(t))
			}
			st.(*sqlStore).socBranches = c.branches
			st.(*sqlStore).socJoinAlways = c.join
			testScaleQueries(t, st, sqlite)
		})
	}
}

// TestSoCValues checks what a SoC filter resolves to: the lower-cased
// SoCs it matches among the kind and validity asked for, and whether
// the pages are walked SoC by SoC.
func TestSoCValues(t *testing.T) {
	ctx := context.Background()
	st, _ := openTemp(t)
	fillVaried(t, st, 60)
	s := st.(*sqlStore)
	for _, c := range []struct {
		q     Query
		socs  []string
		bySoC bool
	}{
		{Query{}, nil, false},
		{Query{SoC: "RK3588"}, []string{"rockchip rk3588", "rockchip rk3588s"}, true},
		{Query{SoC: "rk3588s"}, []string{"rockchip rk3588s"}, true},
		{Query{SoC: "nothing"}, nil, true},
		{Query{SoC: "%"}, nil, true},
		{Query{SoC: "rk3588", IDPrefix: "ab"}, nil, false},
	} {
		socs, _, bySoC, err := s.socValues(ctx, c.q)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(socs, c.socs) || bySoC != c.bySoC {
			t.Errorf("%+v: %q, %v; want %q, %v", c.q, socs, bySoC, c.socs, c.bySoC)
		}
	}
	s.socBranches = 1
	if _, _, bySoC, _ := s.socValues(ctx, Query{SoC: "rk3588"}); bySoC {
		t.Error("two SoCs matched with a bound of one: walked SoC by SoC")
	}
}

// TestSoCJoinCheaper checks the choice between walking a figure's index
// and joining the SoCs' results.
func TestSoCJoinCheaper(t *testing.T) {
	for _, c := range []struct {
		matched, all, need int
		want               bool
	}{
		{17000, 1000000, 50, false},      // the first page: walk
		{17000, 1000000, 10000, false},   // page 200 of a common SoC: walk
		{1000, 1000000, 1000, true},      // page 20 of a rare SoC: join
		{0, 1000000, 10000, false},       // nothing matched
		{500000, 1000000, 100000, false}, // a very common SoC: walk
		{100, 100000, 50, true},          // a rare SoC: join
	} {
		if got := socJoinCheaper(c.matched, c.all, c.need); got != c.want {
			t.Errorf("socJoinCheaper(%d, %d, %d) = %v, want %v", c.matched, c.all, c.need, got, c.want)
		}
	}
}

// TestPutAllMatchesPut checks that a batch write stores what single
// writes store: the same records, counts, and nothing twice.
func TestPutAllMatchesPut(t *testing.T) {
	ctx := context.Background()
	one, _ := openTemp(t)
	many, _ := openTemp(t)
	var docs [][]byte
	for i := 0; i < 150; i++ {
		r := testResult(fmt.Sprintf("%032x", i), fmt.Sprintf("Board %d", i%4), []string{"RK3588", "BCM2712"}[i%2], "6.6", float64(i), scaleBase.Add(time.Duration(i)*time.Minute))
		docs = append(docs, mustJSON(t, r))
	}
	docs = append(docs, docs[3]) // the same result twice
	for _, d := range docs {
		if _, _, err := one.Put(ctx, d); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := many.Put(ctx, docs[7]); err != nil { // stored before
		t.Fatal(err)
	}
	created, err := PutAll(ctx, many, docs)
	if err != nil {
		t.Fatal(err)
	}
	if created != 149 {
		t.Errorf("PutAll created %d, want 149", created)
	}
	for _, q := range []Query{{}, {SoC: "rk", Limit: 5}, {Sort: "sevenzip_multi_mips", Desc: true, Limit: 7, Offset: 3}} {
		a, at, err := one.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		b, bt, err := many.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		if at != bt || fmt.Sprint(a) != fmt.Sprint(b) {
			t.Errorf("%+v: PutAll stored %d records (total %d), Put %d (total %d)", q, len(b), bt, len(a), at)
		}
	}
	for _, id := range []string{fmt.Sprintf("%032x", 42)} {
		a, _ := one.Get(ctx, id)
		b, err := many.Get(ctx, id)
		if err != nil || string(a) != string(b) {
			t.Errorf("document %s differs after PutAll (%v)", id, err)
		}
	}
}

// TestLookupCaseOfShortID checks that a short id typed in capitals finds
// its (lowercase) result, on SQLite as before schema 5 (whose LIKE
// ignored ASCII case), and that an unknown one is not found.
func TestLookupCaseOfShortID(t *testing.T) {
	ctx := context.Background()
	st, _ := openTemp(t)
	ids := fillVaried(t, st, 3)
	got, err := Lookup(ctx, st, strings.ToUpper(ids[1][:10]))
	if err != nil || got != ids[1] {
		t.Errorf("Lookup(%q) = %q, %v; want %q", strings.ToUpper(ids[1][:10]), got, err, ids[1])
	}
	if _, err := Lookup(ctx, st, "FFFFFFFFFFFF"); !errors.Is(err, ErrNotFound) {
		t.Errorf("an unknown short id: %v, want ErrNotFound", err)
	}
}

// TestFigureFiltersMigration: result_figure_filters as migration 8 fills
// it from the stored results equals what the writes (Put, Tag, Remove)
// keep, on both engines.
func TestFigureFiltersMigration(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			ctx := context.Background()
			var st Store
			var spec string
			if engine == "sqlite" {
				st, spec = openTemp(t)
			} else {
				spec = pgDatabase(t)
				if spec == "" {
					return
				}
				st = openPG(t, spec)
			}
			ids := fillVaried(t, st, 60)
			for _, id := range ids[10:13] {
				if err := st.Remove(ctx, id); err != nil {
					t.Fatal(err)
				}
			}
			rows := func(st Store) []string {
				t.Helper()
				r, err := st.(*sqlStore).db.QueryContext(ctx, `SELECT result_id, name, CAST(value AS TEXT), kind, valid, created_at,
					soc_lc, board_lc, core_types_lc, kernel_lc, search_lc FROM result_figure_filters ORDER BY result_id, name`)
				if err != nil {
					t.Fatal(err)
				}
				defer r.Close()
				var out []string
				for r.Next() {
					v := make([]string, 11)
					p := make([]any, len(v))
					for i := range v {
						p[i] = &v[i]
					}
					if err := r.Scan(p...); err != nil {
						t.Fatal(err)
					}
					out = append(out, strings.Join(v, "|"))
				}
				return out
			}
			written := rows(st)
			if len(written) == 0 {
				t.Fatal("no rows in result_figure_filters")
			}
			db := st.(*sqlStore).db
			for _, stmt := range []string{`DROP TABLE result_figure_filters`, `DELETE FROM schema_migrations WHERE version = 8`} {
				if _, err := db.ExecContext(ctx, stmt); err != nil {
					t.Fatal(err)
				}
			}
			st.Close()
			again, err := Open(ctx, spec)
			if err != nil {
				t.Fatal(err)
			}
			defer again.Close()
			if migrated := rows(again); !slices.Equal(migrated, written) {
				t.Errorf("migration 8 filled %d rows, the writes %d:\n%q\n%q", len(migrated), len(written), migrated, written)
			}
		})
	}
}
