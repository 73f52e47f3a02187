package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
)

// How List, Each and the counts find a page among a million results
// (schema version 5; docs/store.md, "A million results"):
//
//   - the filters use the lower-cased columns (board_lc ...), which
//     PostgreSQL's trigram indexes serve; an id prefix is a range of ids
//     in byte order, which an index serves under any collation;
//   - the page's ids are found first, from the indexes alone (the order
//     index holds created_at, id, kind, validity and SoC; a figure's
//     index holds name, value, result id and the result's kind, validity
//     and SoC), with the offset applied there; only the page's rows are
//     then read and their list rows decoded;
//   - a figure sort reads the results that have the figure in the
//     figure index's order (other filters checked through results_filters,
//     an index of the filtered columns by id), then those without it by
//     id: no outer join and no sort of every result;
//   - totals come from result_counts when the query filters by nothing
//     but kind, SoC and validity; otherwise they are counted, up to
//     Query.CountUpTo when that is set.

// filter returns q's conditions on results r (joined with AND) and their
// arguments.
func (s *sqlStore) filter(q Query) (string, []any) { return s.filterOn("r", q) }

// filterOn returns q's conditions on the table t: results, or for a query
// whose filters figure rows carry (countable: kind, SoC, validity) a
// figure row.
func (s *sqlStore) filterOn(t string, q Query) (string, []any) { return s.filterCols(t, "r", q) }

// filterCols returns q's conditions with kind, SoC and validity on the
// table t and the other columns on the table rt (results, or a row of
// result_figure_filters, which carries them all: figureFilters).
func (s *sqlStore) filterCols(t, rt string, q Query) (string, []any) {
	var where []string
	var args []any
	contains := func(col, v string) { // case-insensitive substring, as typed in a filter
		if v != "" {
			w, a := s.containsLower(col, v)
			where = append(where, w)
			args = append(args, a)
		}
	}
	contains(rt+".board_lc", q.Board)
	contains(t+".soc_lc", q.SoC)
	contains(rt+".kernel_lc", q.Kernel)
	contains(rt+".core_types_lc", q.CoreType)
	if c, a := s.kindCond(t+".kind", q); c != "" {
		where = append(where, c)
		args = append(args, a...)
	}
	if q.IDPrefix != "" {
		lo, hi, bounded := prefixRange(q.IDPrefix)
		ge, lt := ">=", "<"
		if s.d.postgres {
			// Byte order, whatever the database's collation: the
			// operators of the text_pattern_ops index results_id_bytes.
			ge, lt = "~>=~", "~<~"
		}
		where = append(where, "r.id "+ge+" ?")
		args = append(args, lo)
		if bounded {
			where = append(where, "r.id "+lt+" ?")
			args = append(args, hi)
		}
	}
	if q.Tag != "" {
		where = append(where, `EXISTS (SELECT 1 FROM result_tags t WHERE t.result_id = r.id AND t.tag = ?)`)
		args = append(args, q.Tag)
	}
	if q.Text != "" {
		p := "%" + likeEscape(strings.ToLower(q.Text)) + "%"
		if !strings.Contains(q.Text, searchSep) {
			w, a := s.containsLower(rt+".search_lc", q.Text)
			where = append(where, w)
			args = append(args, a)
		} else {
			// A text that holds the search column's separator is
			// matched field by field (it then matches nothing a
			// single-line field holds, as before).
			var ors []string
			for _, c := range []string{rt + ".board_lc", "r.soc_lc", rt + ".kernel_lc", "LOWER(r.distro)", "LOWER(r.host)"} {
				ors = append(ors, c+` LIKE ? ESCAPE '\'`)
				args = append(args, p)
			}
			where = append(where, "("+strings.Join(ors, " OR ")+")")
		}
	}
	if !q.Since.IsZero() {
		where = append(where, rt+".created_at >= ?")
		args = append(args, formatTime(q.Since))
	}
	if q.ValidOnly {
		where = append(where, t+".valid = 1")
	}
	if len(where) == 0 {
		return "1 = 1", nil
	}
	return strings.Join(where, " AND "), args
}

// containsLower returns the condition that the lower-cased column col
// holds v, ignoring case, and its argument. PostgreSQL compares with
// LIKE, which its trigram indexes serve; SQLite with instr, the same
// test on columns boardbench lower-cased (SQLite's LIKE folds ASCII
// letters, which neither side then holds) several times faster, and
// with no pattern characters to escape.
func (s *sqlStore) containsLower(col, v string) (string, any) {
	v = strings.ToLower(v)
	if !s.d.postgres {
		return "instr(" + col + ", ?) > 0", v
	}
	return col + ` LIKE ? ESCAPE '\'`, "%" + likeEscape(v) + "%"
}

// prefixRange returns the ids a prefix selects as a range in byte order:
// lo <= id < hi, hi being the prefix with its last byte incremented
// (unbounded when every byte is 0xff, which no text id holds).
func prefixRange(prefix string) (lo, hi string, bounded bool) {
	b := []byte(prefix)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return prefix, string(b[:i+1]), true
		}
	}
	return prefix, "", false
}

// likeEscape escapes s for a LIKE pattern with '\' as the escape.
func likeEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s)
}

// page appends LIMIT and OFFSET for q to query.
func (s *sqlStore) page(query string, args []any, limit, offset int) (string, []any) {
	switch {
	case limit > 0:
		return query + ` LIMIT ? OFFSET ?`, append(args, limit, offset)
	case offset > 0 && s.d.postgres:
		return query + ` OFFSET ?`, append(args, offset)
	case offset > 0:
		return query + ` LIMIT -1 OFFSET ?`, append(args, offset)
	}
	return query, args
}

// each calls fn with each record q selects, in q's order, streaming: the
// records are not collected.
func (s *sqlStore) each(ctx context.Context, q Query, fn func(Record) error) error {
	if err := ValidateQuery(q); err != nil {
		return err
	}
	cond, args := s.filter(q)
	dir := " ASC"
	if q.Desc {
		dir = " DESC"
	}
	col, isColumn := sortColumn(q.Sort)
	substring := q.Board != "" || q.SoC != "" || q.CoreType != "" || q.Kernel != "" || q.Text != ""
	socs, matched, bySoC, err := s.socValues(ctx, q)
	if err != nil {
		return err
	}
	if bySoC && len(socs) == 0 {
		return nil // the filter matches no SoC: no result
	}
	switch {
	case (q.Sort == "" || q.Sort == "created_at") && bySoC:
		// By date (the default: newest first), SoC by SoC (socPage).
		d := dir
		if q.Sort == "" {
			d = " DESC"
		}
		inner, iargs := s.socPage(q, socs, d, q.Limit, q.Offset)
		return s.eachPage(ctx, pageQuery{pageSQL: inner, order: "k" + d + ", id" + d, outer: "p.k" + d + ", p.id" + d}, iargs, q.Limit, q.Offset, fn)
	case q.Sort == "":
		// Newest first, whatever Desc says.
		return s.eachPage(ctx, pageQuery{from: `FROM results r WHERE ` + cond, id: "r.id", key: "r.created_at",
			order: "r.created_at DESC, r.id DESC", outer: "p.k DESC, p.id DESC", filtered: substring}, args, q.Limit, q.Offset, fn)
	case isColumn:
		return s.eachPage(ctx, pageQuery{from: `FROM results r WHERE ` + cond, id: "r.id", key: col,
			order: col + dir + ", r.id" + dir, outer: "p.k" + dir + ", p.id" + dir}, args, q.Limit, q.Offset, fn)
	}
	// A figure: the results that have it in its order, then those
	// without it by id (in the same direction).
	withFrom := `FROM result_figures f JOIN results r ON r.id = f.result_id WHERE f.name = ? AND ` + cond
	withArgs := append([]any{q.Sort}, args...)
	pageFrom := withFrom
	if countable(q) {
		// Kind, SoC and validity are on the figure rows: the page is
		// read from the figure index alone.
		fcond, fargs := s.filterOn("f", q)
		withFrom = `FROM result_figures f JOIN results r ON r.id = f.result_id WHERE f.name = ? AND ` + fcond
		pageFrom = `FROM result_figures f WHERE f.name = ? AND ` + fcond
		withArgs = append([]any{q.Sort}, fargs...)
	}
	useFigureFilters := !bySoC && figureFilters(q)
	if useFigureFilters {
		// A headline figure under filters its rows in
		// result_figure_filters carry: the page is walked in that
		// table's index alone (migration 8). Walking the figure's own
		// index read each walked result's row for the filter: page 100
		// of "raspberry" by 7-Zip at 1,000,000 results in PostgreSQL
		// walked 195,000 entries, 2.6 s.
		fcond, fargs := s.filterCols("f", "f", q)
		withFrom = `FROM result_figure_filters f JOIN results r ON r.id = f.result_id WHERE f.name = ? AND ` + fcond
		pageFrom = `FROM result_figure_filters f WHERE f.name = ? AND ` + fcond
		withArgs = append([]any{q.Sort}, fargs...)
	}
	if !useFigureFilters && !s.d.postgres && !countable(q) && q.Limit > 0 && q.Offset+q.Limit > filterFirstFrom {
		// A deep page under a filter the figure rows do not carry
		// (text, kernel, core type...), on SQLite: the matching results
		// first, from the filter columns' index, each joined with its
		// figure row, then sorted (CROSS JOIN fixes SQLite's loop order).
		// Walking the figure's index would check each entry on the
		// result's row, a random read, for as many entries as precede
		// the page's end among all results: 3.8 s for page 100 of
		// "raspberry" by 7-Zip at 100,000 results, against about 80 ms.
		withFrom = `FROM results r CROSS JOIN result_figures f WHERE f.result_id = r.id AND f.name = ? AND ` + cond
		pageFrom = withFrom
		withArgs = append([]any{q.Sort}, args...)
	}
	var socFig string // the with-figure ids SoC by SoC (socFigurePage)
	var socFigArgs []any
	if bySoC && headlineFigure(q.Sort) {
		socFig, socFigArgs = s.socFigurePage(q, socs, dir, q.Limit, q.Offset)
	} else if bySoC && q.Limit > 0 {
		all, err := s.count(ctx, Query{Kind: q.Kind, ValidOnly: q.ValidOnly})
		if err != nil {
			return err
		}
		if s.socJoinAlways || socJoinCheaper(matched, all, q.Offset+q.Limit) {
			// The SoCs' results, found in their index, joined with
			// their figure rows and sorted.
			q2 := q
			q2.SoC = ""
			cond2, args2 := s.filter(q2)
			in := strings.TrimSuffix(strings.Repeat("?, ", len(socs)), ", ")
			withFrom = `FROM results r JOIN result_figures f ON f.result_id = r.id AND f.name = ? WHERE r.soc_lc IN (` + in + `) AND ` + cond2
			pageFrom = withFrom
			withArgs = []any{q.Sort}
			for _, v := range socs {
				withArgs = append(withArgs, v)
			}
			withArgs = append(withArgs, args2...)
		}
	}
	n := 0
	count := func(r Record) error { n++; return fn(r) }
	if socFig != "" {
		err = s.eachPage(ctx, pageQuery{pageSQL: socFig, order: "k" + dir + ", id" + dir, outer: "p.k" + dir + ", p.id" + dir},
			socFigArgs, q.Limit, q.Offset, count)
	} else {
		err = s.eachPage(ctx, pageQuery{from: withFrom, pageFrom: pageFrom, id: "f.result_id", key: "f.value",
			order: "f.value" + dir + ", f.result_id" + dir, outer: "p.k" + dir + ", p.id" + dir}, withArgs, q.Limit, q.Offset, count)
	}
	if err != nil || (q.Limit > 0 && n >= q.Limit) {
		return err
	}
	offset := 0
	if n == 0 && q.Offset > 0 {
		// The page starts past the results that have the figure.
		var with int
		countSQL, countArgs := `SELECT COUNT(*) `+pageFrom, withArgs
		if socFig != "" {
			// Each SoC's figure rows, counted in their index.
			all, aargs := s.socFigurePage(q, socs, dir, 0, 0)
			countSQL, countArgs = `SELECT COUNT(*) FROM (`+all+`) c`, aargs
		}
		if err := s.queryRow(ctx, s.q(countSQL), countArgs...).Scan(&with); err != nil {
			return err
		}
		offset = max(0, q.Offset-with)
	}
	limit := 0
	if q.Limit > 0 {
		limit = q.Limit - n
	}
	if bySoC {
		// The SoCs by name: their results are found in their index
		// (results_soc_order) and sorted, not checked one by one in the
		// order of ids.
		q2 := q
		q2.SoC = ""
		cond2, args2 := s.filter(q2)
		in := strings.TrimSuffix(strings.Repeat("?, ", len(socs)), ", ")
		cond, args = `r.soc_lc IN (`+in+`) AND `+cond2, nil
		for _, v := range socs {
			args = append(args, v)
		}
		args = append(args, args2...)
	}
	return s.eachPage(ctx, pageQuery{from: `FROM results r WHERE ` + cond + `
		AND NOT EXISTS (SELECT 1 FROM result_figures f WHERE f.result_id = r.id AND f.name = ?)`, id: "r.id", key: "r.id",
		order: "r.id" + dir, outer: "p.id" + dir}, append(args, q.Sort), limit, offset, fn)
}

// defaultSoCBranches is how many SoCs a SoC filter may match for its
// pages to be walked SoC by SoC; a filter matching more (a common
// substring) matches many results, whose pages the order index finds
// quickly anyway.
const defaultSoCBranches = 16

// socValues resolves q's SoC filter to the lower-cased SoCs it matches
// among the results of q's kind and validity, from result_counts, and
// the number of those results. bySoC is false when q has no SoC filter,
// selects by id prefix, or the filter matches more SoCs than
// s.socBranches: the pages are then found with the filter as a
// substring condition.
func (s *sqlStore) socValues(ctx context.Context, q Query) (socs []string, matched int, bySoC bool, err error) {
	if q.SoC == "" || q.IDPrefix != "" {
		return nil, 0, false, nil
	}
	limit := s.socBranches
	if limit <= 0 {
		limit = defaultSoCBranches
	}
	query := `SELECT soc_lc, SUM(n) FROM result_counts WHERE soc_lc LIKE ? ESCAPE '\'`
	args := []any{"%" + likeEscape(strings.ToLower(q.SoC)) + "%"}
	if c, a := s.kindCond("kind", Query{Kind: q.Kind, Kinds: q.Kinds}); c != "" {
		query += ` AND ` + c
		args = append(args, a...)
	}
	if q.ValidOnly {
		query += ` AND valid = 1`
	}
	query += ` GROUP BY soc_lc HAVING SUM(n) > 0 ORDER BY soc_lc`
	rows, err := s.query(ctx, s.q(query), args...)
	if err != nil {
		return nil, 0, false, err
	}
	defer rows.Close()
	for rows.Next() {
		var soc string
		var n int
		if err := rows.Scan(&soc, &n); err != nil {
			return nil, 0, false, err
		}
		socs = append(socs, soc)
		matched += n
	}
	if err := rows.Err(); err != nil {
		return nil, 0, false, err
	}
	if len(socs) > limit {
		return nil, 0, false, nil
	}
	return socs, matched, true, nil
}

// socPage returns the query of the ids and keys (id, k) of q's results
// by date in the direction dir (" DESC", the default, or " ASC"), SoC by
// SoC: for each SoC its
// results in the index results_soc_order, up to offset+limit of them
// when a page is asked for, merged when there are several. An offset
// then skips only results of the filter's SoCs (at a million results,
// page 200 of one SoC skips 10,000 index entries, not the 500,000 the
// order index holds before them). The caller orders the union by k and
// id and applies the page.
func (s *sqlStore) socPage(q Query, socs []string, dir string, limit, offset int) (string, []any) {
	q2 := q
	q2.SoC = ""
	cond, cargs := s.filter(q2)
	b := `SELECT r.id AS id, r.created_at AS k FROM results r WHERE r.soc_lc = ? AND ` + cond +
		` ORDER BY r.created_at` + dir + `, r.id` + dir
	return unionPerSoC(b, socs, cargs, limit, offset)
}

// unionPerSoC returns the union of one statement b per SoC: b takes the
// SoC as its first argument, then cargs, and is cut at offset+limit rows
// when a page is asked for (limit > 0). One SoC needs no union.
func unionPerSoC(b string, socs []string, cargs []any, limit, offset int) (string, []any) {
	if limit > 0 {
		b += ` LIMIT ?`
	}
	var parts []string
	var args []any
	for i, soc := range socs {
		args = append(args, soc)
		args = append(args, cargs...)
		if limit > 0 {
			args = append(args, offset+limit)
		}
		if len(socs) == 1 {
			return b, args
		}
		parts = append(parts, `SELECT id, k FROM (`+b+`) s`+strconv.Itoa(i))
	}
	return strings.Join(parts, ` UNION ALL `), args
}

// filterFirstFrom is the page end (offset + page size) from which a
// figure sort under a filter the figure rows do not carry finds the
// matching results first on SQLite: before it, walking the figure's index
// reaches the page's end after few entries when the filter's results
// are common, which a first page of a text filter is.
const filterFirstFrom = 1000

// figureFilters reports whether a page of q, sorted by a figure, is
// found in result_figure_filters: q sorts by a headline figure, filters
// by more than the figure rows carry (countable), and by nothing that
// table lacks (tags, an id prefix, a text field holding searchSep, which
// is matched field by field on the result's row).
func figureFilters(q Query) bool {
	return headlineFigure(q.Sort) && !countable(q) && q.Tag == "" && q.IDPrefix == "" && !strings.Contains(q.Text, searchSep)
}

// headlineFigure reports whether name is one of the figures serve's
// table sorts by, which the partial index result_figures_soc_sort holds
// (schema 7; headlineFigureList, its WHERE, lists the same names), and
// whose rows result_figure_filters holds (schema 8).
func headlineFigure(name string) bool {
	switch name {
	case "sevenzip_multi_mips", "sevenzip_single_mips.max", "aes256_16k.max", "memcpy_mb_s.max", "memset_mb_s.max", "clock_mhz.max":
		return true
	}
	return false
}

// socFigurePage returns the query of the ids and keys (id, k) of the
// results of q that have q.Sort, a headline figure, in its order (dir),
// SoC by SoC: for each SoC its figure rows in result_figures_soc_sort
// (name, soc_lc, value, result_id, kind, valid), up to offset+limit of
// them when a page is asked for, merged as socPage's. Filters the figure
// rows do not carry are checked on the result's row. The name is written
// into the statement (it is one of headlineFigure's, no quote in it), with
// the index's own WHERE: SQLite uses a partial index only for a query
// whose WHERE holds the index's terms.
func (s *sqlStore) socFigurePage(q Query, socs []string, dir string, limit, offset int) (string, []any) {
	q2 := q
	q2.SoC = ""
	from := `FROM result_figures f WHERE`
	cond, cargs := s.filterOn("f", q2)
	if !countable(q) {
		from = `FROM result_figures f JOIN results r ON r.id = f.result_id WHERE`
		cond, cargs = s.filter(q2)
	}
	b := `SELECT f.result_id AS id, f.value AS k ` + from + ` f.name = '` + q.Sort + `' AND f.name IN (` + headlineFigureList + `)
			AND f.soc_lc = ? AND ` + cond +
		` ORDER BY f.value` + dir + `, f.result_id` + dir
	return unionPerSoC(b, socs, cargs, limit, offset)
}

// socJoinCheaper reports whether a page of a figure sort under a SoC
// filter is found more cheaply from the SoCs' results (matched of them,
// each joined with its figure row, then sorted) than by walking the
// figure's index until the page's end (need entries that match, about
// need*all/matched entries when the filter's results are spread evenly).
// A result joined costs about a hundred index entries walked: its figure
// row is a random read, while the walk reads the index in order (at
// 268,000 results in PostgreSQL, page 200 of RK3588 sorted by 7-Zip: 48
// ms walking 70,000 entries, 1.5 s joining 11,500 results). So the join
// serves rare SoCs, whose deep pages the walk would find only near the
// index's end.
func socJoinCheaper(matched, all, need int) bool {
	if matched == 0 {
		return false
	}
	return 100*float64(matched) < float64(need)*float64(all)/float64(matched)
}

// pageQuery is one ordered selection of results r: its FROM and WHERE
// clauses, the expressions of the id and the sort key, its ORDER BY, and
// the same order over the page p (columns id and k).
type pageQuery struct {
	from, id, key, order, outer string
	// pageFrom, when set, replaces from in the query of a page's ids
	// (the same rows, from fewer tables).
	pageFrom string
	// pageSQL, when set, is the whole query of the ids and keys (columns
	// id and k) of the selection, unordered; order is then its order
	// over those columns. The records are then always found as ids
	// first.
	pageSQL string
	// filtered asks for the ids first even without a page: a substring
	// filter is then checked in an index, and only the matching rows are
	// read (a whole list without one is read in one pass instead).
	filtered bool
}

// eachPage runs pq and calls fn with each record, in order. A page (limit
// or offset) is found first as ids and keys alone, so that the indexes
// give it, and only its rows' list rows are read; a whole list is one
// query in the index's order, streamed.
func (s *sqlStore) eachPage(ctx context.Context, pq pageQuery, args []any, limit, offset int, fn func(Record) error) error {
	query := `SELECT r.id, r.list_row ` + pq.from + ` ORDER BY ` + pq.order
	if pq.pageSQL != "" {
		inner, pargs := s.page(`SELECT id, k FROM (`+pq.pageSQL+`) u ORDER BY `+pq.order, args, limit, offset)
		query = `SELECT r.id, r.list_row FROM (` + inner + `) p JOIN results r ON r.id = p.id ORDER BY ` + pq.outer
		args = pargs
	} else if limit > 0 || offset > 0 || pq.filtered {
		from := pq.from
		if pq.pageFrom != "" {
			from = pq.pageFrom
		}
		inner, pargs := s.page(`SELECT `+pq.id+` AS id, `+pq.key+` AS k `+from+` ORDER BY `+pq.order, args, limit, offset)
		query = `SELECT r.id, r.list_row FROM (` + inner + `) p JOIN results r ON r.id = p.id ORDER BY ` + pq.outer
		args = pargs
	}
	rows, err := s.query(ctx, s.q(query), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	names := map[string]string{}
	// Once a list row does not decode (a damaged store), the records are
	// kept back, to be given in order once the query's rows are closed
	// and the undecoded ones have been read from the tables.
	type held struct {
		rec Record
		bad bool
	}
	var pending []held
	for rows.Next() {
		var id, row string
		if err := rows.Scan(&id, &row); err != nil {
			return err
		}
		rec, err := decodeListRow(row, names)
		bad := err != nil || rec.ID != id
		if bad {
			rec = Record{ID: id}
		}
		if bad || len(pending) > 0 {
			pending = append(pending, held{rec, bad})
			continue
		}
		if err := fn(rec); err != nil {
			return err
		}
	}
	if err := rows.Err(); err != nil {
		return err
	}
	rows.Close()
	for _, h := range pending {
		if h.bad {
			if h.rec, err = s.recordFromTables(ctx, s.db, h.rec.ID); err != nil {
				return err
			}
		}
		if err := fn(h.rec); err != nil {
			return err
		}
	}
	return nil
}

// countable reports whether q's total can be read from result_counts:
// it filters by nothing but kind, SoC and validity.
func countable(q Query) bool {
	return q.Board == "" && q.CoreType == "" && q.Kernel == "" && q.Tag == "" && q.IDPrefix == "" &&
		q.Text == "" && q.Since.IsZero()
}

// count returns how many records q selects, ignoring Offset and Limit:
// from result_counts when q allows it, else counted (up to
// q.CountUpTo+1 when that is set).
func (s *sqlStore) count(ctx context.Context, q Query) (int, error) {
	var total int
	if countable(q) {
		query := `SELECT COALESCE(SUM(n), 0) FROM result_counts WHERE `
		c, args := s.kindCond("kind", Query{Kind: q.Kind, Kinds: q.Kinds})
		query += c
		if q.SoC != "" {
			query += ` AND soc_lc LIKE ? ESCAPE '\'`
			args = append(args, "%"+likeEscape(strings.ToLower(q.SoC))+"%")
		}
		if q.ValidOnly {
			query += ` AND valid = 1`
		}
		err := s.queryRow(ctx, s.q(query), args...).Scan(&total)
		return total, err
	}
	cond, args := s.filter(q)
	query := `SELECT COUNT(*) FROM results r WHERE ` + cond
	if q.CountUpTo > 0 {
		query = `SELECT COUNT(*) FROM (SELECT 1 FROM results r WHERE ` + cond + ` LIMIT ?) c`
		args = append(args, q.CountUpTo+1)
	}
	err := s.queryRow(ctx, s.q(query), args...).Scan(&total)
	return total, err
}

// socs returns the SoCs of the stored results (but replays), sorted,
// from result_counts.
func (s *sqlStore) socs(ctx context.Context) ([]string, error) {
	rows, err := s.query(ctx, s.q(`SELECT DISTINCT soc FROM result_counts WHERE kind <> ? AND n > 0 AND soc <> '' ORDER BY soc`), KindReplay)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var soc string
		if err := rows.Scan(&soc); err != nil {
			return nil, err
		}
		out = append(out, soc)
	}
	return out, rows.Err()
}

// query runs a query of a page, count or menu, giving it to s.trace
// first when that is set (Explain).
func (s *sqlStore) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if s.trace != nil {
		s.trace(query, args)
	}
	return s.db.QueryContext(ctx, query, args...)
}

// queryRow is query for one row.
func (s *sqlStore) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	if s.trace != nil {
		s.trace(query, args)
	}
	return s.db.QueryRowContext(ctx, query, args...)
}
