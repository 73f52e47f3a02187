package store

import (
	"context"
	"slices"
	"strings"
)

// kindCond returns q's condition on the kind column col (Kind, else
// Kinds, else every kind but KindReplay unless q selects by id) and its
// arguments; "" when q does not filter by kind.
func (s *sqlStore) kindCond(col string, q Query) (string, []any) {
	switch {
	case q.Kind != "":
		return col + " = ?", []any{q.Kind}
	case len(q.Kinds) > 0:
		args := make([]any, len(q.Kinds))
		for i, k := range q.Kinds {
			args[i] = k
		}
		in := strings.TrimSuffix(strings.Repeat("?, ", len(q.Kinds)), ", ")
		if s.d.postgres {
			// The bare column, whose statistics PostgreSQL has: on the
			// expression below it assumed a default selectivity (about
			// 1 % of the results), chose a parallel scan and sorted
			// every result for a deep page (/?page=2000 at 1,000,000
			// results: 1.36 s, against 61 ms walking the order index).
			return col + " IN (" + in + ")", args
		}
		// (col || '') on SQLite rather than col: the set is the common
		// kinds (serve's default, run and import), which the order and
		// figure indexes filter as they give the page; with the bare
		// column SQLite chose the kind index and sorted every selected
		// result (a page at offset 7,450 of 10,000: 40 ms → 120–176 ms).
		return "(" + col + " || '') IN (" + in + ")", args
	case q.IDPrefix == "":
		// A replay of a recorded root is no measurement of a machine:
		// listed only when asked for by kind (or by id).
		return col + " <> ?", []any{KindReplay}
	}
	return "", nil
}

// KindSelected reports whether a record of kind k is one q selects by
// kind (the rule kindCond writes in SQL), for stores that are not SQL.
func KindSelected(q Query, k string) bool {
	switch {
	case q.Kind != "":
		return k == q.Kind
	case len(q.Kinds) > 0:
		return slices.Contains(q.Kinds, k)
	case q.IDPrefix == "":
		return k != KindReplay
	}
	return true
}

// Kinds returns the kinds of the stored results (replays included),
// sorted: serve's Kind menu. A SQL store reads them from its small table
// of counts, never from the results; another store is read with List.
func Kinds(ctx context.Context, st Store) ([]string, error) {
	if s, ok := st.(*sqlStore); ok {
		rows, err := s.db.QueryContext(ctx, `SELECT DISTINCT kind FROM result_counts WHERE n > 0 ORDER BY kind`)
		if err != nil {
			return nil, err
		}
		defer rows.Close()
		out := []string{}
		for rows.Next() {
			var k string
			if err := rows.Scan(&k); err != nil {
				return nil, err
			}
			out = append(out, k)
		}
		return out, rows.Err()
	}
	out := []string{}
	for _, q := range []Query{{}, {Kind: KindReplay}} {
		if err := Each(ctx, st, q, func(r Record) error {
			if r.Kind != "" && !slices.Contains(out, r.Kind) {
				out = append(out, r.Kind)
			}
			return nil
		}); err != nil {
			return nil, err
		}
	}
	slices.Sort(out)
	return out, nil
}
