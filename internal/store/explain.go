package store

import (
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Explain lists q (as Store.List does) and returns each statement the
// list sent, with its arguments, followed by the database's plan of it:
// PostgreSQL's EXPLAIN ANALYZE (the statement is run again, with the
// same arguments, so a plan chosen for these values is shown, with the
// time of each step), SQLite's EXPLAIN QUERY PLAN. It is how
// docs/store.md's plans are taken (scripts/benchlab -explain).
func Explain(ctx context.Context, st Store, q Query) (string, error) {
	s, ok := st.(*sqlStore)
	if !ok {
		return "", fmt.Errorf("store: no plans of a %T", st)
	}
	type stmt struct {
		query string
		args  []any
	}
	var stmts []stmt
	traced := *s
	traced.trace = func(query string, args []any) { stmts = append(stmts, stmt{query, args}) }
	if _, _, err := traced.List(ctx, q); err != nil {
		return "", err
	}
	var b strings.Builder
	for _, st := range stmts {
		fmt.Fprintf(&b, "-- %s\n", strings.Join(strings.Fields(st.query), " "))
		if len(st.args) > 0 {
			var args []string
			for _, a := range st.args {
				if v, ok := a.(string); ok {
					args = append(args, strconv.Quote(v))
				} else {
					args = append(args, fmt.Sprint(a))
				}
			}
			fmt.Fprintf(&b, "-- arguments: %s\n", strings.Join(args, ", "))
		}
		plan, err := s.plan(ctx, st.query, st.args)
		if err != nil {
			return "", err
		}
		b.WriteString(plan)
	}
	return b.String(), nil
}

// plan returns the database's plan of one statement (see Explain).
func (s *sqlStore) plan(ctx context.Context, query string, args []any) (string, error) {
	var b strings.Builder
	if s.d.postgres {
		rows, err := s.db.QueryContext(ctx, `EXPLAIN (ANALYZE, COSTS OFF) `+query, args...)
		if err != nil {
			return "", err
		}
		defer rows.Close()
		for rows.Next() {
			var line string
			if err := rows.Scan(&line); err != nil {
				return "", err
			}
			b.WriteString(line + "\n")
		}
		return b.String(), rows.Err()
	}
	rows, err := s.db.QueryContext(ctx, `EXPLAIN QUERY PLAN `+query, args...)
	if err != nil {
		return "", err
	}
	defer rows.Close()
	depth := map[int]int{}
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			return "", err
		}
		depth[id] = depth[parent] + 1
		b.WriteString(strings.Repeat("  ", depth[id]-1) + detail + "\n")
	}
	return b.String(), rows.Err()
}
