package store

import (
	"context"
	"maps"
	"slices"
	"strings"
	"time"
)

// PutAll saves many result documents as Put does, in one transaction per
// batch of them with a few multi-row statements: what importing or pushing
// thousands of results needs (each Put is a transaction of about eight
// statements). It returns how many were new; documents already stored
// are left as they are. A store that is not a SQL store gets one Put per
// document.
func PutAll(ctx context.Context, st Store, docs [][]byte) (created int, err error) {
	s, ok := st.(*sqlStore)
	if !ok {
		for _, d := range docs {
			_, c, err := st.Put(ctx, d)
			if err != nil {
				return created, err
			}
			if c {
				created++
			}
		}
		return created, nil
	}
	for len(docs) > 0 {
		n := min(len(docs), putAllBatch)
		c, err := s.putBatch(ctx, docs[:n])
		created += c
		if err != nil {
			return created, err
		}
		docs = docs[n:]
	}
	return created, nil
}

// putAllBatch is how many results one statement inserts: 19 columns each,
// well within both databases' limits on parameters.
const putAllBatch = 100

func (s *sqlStore) putBatch(ctx context.Context, docs [][]byte) (int, error) {
	recs := make([]Record, 0, len(docs))
	byID := map[string]int{}
	for _, d := range docs {
		rec, err := Index(d)
		if err != nil {
			return 0, err
		}
		if _, dup := byID[rec.ID]; dup {
			continue // the same result twice in one batch: stored once
		}
		byID[rec.ID] = len(recs)
		recs = append(recs, rec)
	}
	tx, err := s.begin(ctx)
	if err != nil {
		return 0, err
	}
	defer tx.Rollback()
	now := formatTime(time.Now())
	var b strings.Builder
	b.WriteString(`INSERT INTO results (id, kind, board, soc, core_types, kernel, distro, arch, host, created_at,
		status, valid, list_row, stored_at, board_lc, soc_lc, core_types_lc, kernel_lc, search_lc) VALUES `)
	args := make([]any, 0, 19*len(recs))
	for i, rec := range recs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
		lc := lowerColumns(rec)
		args = append(args, rec.ID, rec.Kind, rec.Board, rec.SoC, rec.CoreTypes, rec.Kernel, rec.Distro, rec.Arch, rec.Host,
			formatTime(rec.CreatedAt), rec.Status, boolInt(rec.Valid), encodeListRow(rec), now, lc[0], lc[1], lc[2], lc[3], lc[4])
	}
	b.WriteString(` ON CONFLICT (id) DO NOTHING RETURNING id`)
	rows, err := tx.QueryContext(ctx, s.q(b.String()), args...)
	if err != nil {
		return 0, err
	}
	var fresh []Record
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return 0, err
		}
		fresh = append(fresh, recs[byID[id]])
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return 0, err
	}
	// In the order of the documents, so that the same batch writes the
	// same rows in the same order.
	slices.SortFunc(fresh, func(a, b Record) int { return byID[a.ID] - byID[b.ID] })
	var docRows, figs, figFilters, finds, tools [][]any
	counts := map[[3]string]int{}
	for _, rec := range fresh {
		docRows = append(docRows, []any{rec.ID, string(docs[byID[rec.ID]])})
		for _, name := range slices.Sorted(maps.Keys(rec.Figures)) {
			figs = append(figs, figureRow(rec, name))
			if headlineFigure(name) {
				figFilters = append(figFilters, figureFilterRow(rec, name))
			}
		}
		for _, f := range rec.FindingIDs {
			finds = append(finds, []any{rec.ID, f})
		}
		for _, name := range slices.Sorted(maps.Keys(rec.Tools)) {
			tools = append(tools, []any{rec.ID, name, rec.Tools[name]})
		}
		counts[[3]string{rec.Kind, rec.SoC, strings.Repeat("1", boolInt(rec.Valid))}]++
	}
	for _, step := range []struct {
		head, tail string
		rows       [][]any
	}{
		{`INSERT INTO result_docs (id, doc) VALUES `, "", docRows},
		{figureInsert, "", figs},
		{figureFilterInsert, "", figFilters},
		{`INSERT INTO result_findings (result_id, finding_id) VALUES `, " ON CONFLICT DO NOTHING", finds},
		{`INSERT INTO result_tools (result_id, name, version) VALUES `, "", tools},
	} {
		if err := s.insertRows(ctx, tx, step.head, step.rows, step.tail); err != nil {
			return 0, err
		}
	}
	// The counts in key order: two batches written at once take the
	// rows' locks in the same order (no deadlock).
	keys := slices.SortedFunc(maps.Keys(counts), func(a, b [3]string) int {
		return strings.Compare(strings.Join(a[:], "\x00"), strings.Join(b[:], "\x00"))
	})
	for _, k := range keys {
		if err := s.countResult(ctx, tx, k[0], k[1], len(k[2]), counts[k]); err != nil {
			return 0, err
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, err
	}
	return len(fresh), nil
}
