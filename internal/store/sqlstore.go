package store

import (
	"boardbench/internal/lazyre"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"boardbench/internal/buildinfo"
)

// dialect is what differs between the databases: placeholders, how a
// write transaction takes its lock, and the store's name in messages.
type dialect struct {
	name string
	// postgres numbers placeholders ($1, $2...); SQLite takes "?".
	postgres bool
}

// sqlStore implements Store over database/sql for SQLite and PostgreSQL.
type sqlStore struct {
	db      *sql.DB
	d       dialect
	where   string // the store's path or URL without credentials, for messages
	closeFn func() error
	// socBranches bounds how many SoCs a SoC filter may match for its
	// pages to be walked SoC by SoC (socPage); 0 means defaultSoCBranches.
	socBranches int
	// socJoinAlways makes a figure sort under a SoC filter that is
	// walked SoC by SoC always join the SoCs' results (tests: both
	// paths, whatever the store's size).
	socJoinAlways bool
	// trace, when set, is given each statement of a list, count or menu
	// before it runs (Explain).
	trace func(query string, args []any)
}

// ErrNewerSchema is returned (wrapped) by Open for a store written by a
// newer boardbench: nothing is changed in it.
const ErrNewerSchema = sentinel("the store was written by a newer boardbench")

// q rewrites the "?" placeholders of query for the dialect.
func (s *sqlStore) q(query string) string {
	if !s.d.postgres {
		return query
	}
	var b strings.Builder
	n := 0
	for _, c := range query {
		if c == '?' {
			n++
			b.WriteString("$" + strconv.Itoa(n))
			continue
		}
		b.WriteRune(c)
	}
	return b.String()
}

// begin starts a write transaction. SQLite's are IMMEDIATE (the DSN's
// _txlock), so concurrent writers wait on the busy timeout instead of
// failing when a read lock cannot be upgraded.
func (s *sqlStore) begin(ctx context.Context) (*sql.Tx, error) {
	return s.db.BeginTx(ctx, nil)
}

// migrate brings the schema to SchemaVersion in one transaction, or
// refuses a store of a newer version without changing it.
func (s *sqlStore) migrate(ctx context.Context) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	defer tx.Rollback()
	if s.d.postgres {
		// One migrating process at a time; the lock ends with the transaction.
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(7305486117)`); err != nil {
			return fmt.Errorf("store %s: %w", s.where, err)
		}
	}
	have, err := s.tableExists(ctx, tx, "schema_migrations")
	if err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	if !have {
		if other, err := s.tableExists(ctx, tx, "results"); err != nil {
			return fmt.Errorf("store %s: %w", s.where, err)
		} else if other {
			return fmt.Errorf("store %s: it has a results table but no schema_migrations: not a boardbench store", s.where)
		}
		if _, err := tx.ExecContext(ctx, migrationsTable); err != nil {
			return fmt.Errorf("store %s: %w", s.where, err)
		}
	}
	var version sql.NullInt64
	if err := tx.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&version); err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	current := int(version.Int64)
	if current > SchemaVersion() {
		return fmt.Errorf("store %s has schema version %d; this boardbench knows versions up to %d: %w (upgrade boardbench; the store was not changed)",
			s.where, current, SchemaVersion(), ErrNewerSchema)
	}
	if current == SchemaVersion() {
		return nil
	}
	now := formatTime(time.Now())
	for v := current; v < SchemaVersion(); v++ {
		for _, stmt := range migrations[v] {
			if err := s.migrationStep(ctx, tx, stmt); err != nil {
				return fmt.Errorf("store %s: migration to schema version %d: %w", s.where, v+1, err)
			}
		}
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO schema_migrations (version, applied_at, boardbench) VALUES (?, ?, ?)`),
			v+1, now, buildinfo.Get().Version); err != nil {
			return fmt.Errorf("store %s: migration to schema version %d: %w", s.where, v+1, err)
		}
	}
	if current > 0 && needsReindex(current) {
		if err := s.reindex(ctx, tx); err != nil {
			return fmt.Errorf("store %s: indexing the stored results again: %w", s.where, err)
		}
	} else if current > 0 && current < 8 {
		if _, err := tx.ExecContext(ctx, fillFigureFilters); err != nil {
			return fmt.Errorf("store %s: migration to schema version 8: %w", s.where, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	return nil
}

// needsReindex reports whether a store migrated from version current
// must derive its columns and tables again: some migration it lacked
// adds what is derived from the documents.
func needsReindex(current int) bool {
	for v := current + 1; v <= SchemaVersion(); v++ {
		if !derivesNothing(v) {
			return true
		}
	}
	return false
}

// migrationStep runs one statement of a migration: statements marked
// sqliteOnly only on SQLite, pgOnly or pgOptional only on PostgreSQL, a pgOptional one in a
// savepoint whose failure is rolled back and ignored.
func (s *sqlStore) migrationStep(ctx context.Context, tx *sql.Tx, stmt string) error {
	if rest, ok := strings.CutPrefix(stmt, sqliteOnly); ok {
		if s.d.postgres {
			return nil
		}
		stmt = rest
	}
	if rest, ok := strings.CutPrefix(stmt, pgOnly); ok {
		if !s.d.postgres {
			return nil
		}
		stmt = rest
	}
	rest, optional := strings.CutPrefix(stmt, pgOptional)
	if !optional {
		_, err := tx.ExecContext(ctx, stmt)
		return err
	}
	if !s.d.postgres {
		return nil
	}
	if _, err := tx.ExecContext(ctx, `SAVEPOINT optional_step`); err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, rest); err != nil {
		_, err = tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT optional_step`)
		return err
	}
	_, err := tx.ExecContext(ctx, `RELEASE SAVEPOINT optional_step`)
	return err
}

func (s *sqlStore) tableExists(ctx context.Context, tx *sql.Tx, name string) (bool, error) {
	query := `SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = ?`
	if s.d.postgres {
		query = `SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?`
	}
	var n int
	err := tx.QueryRowContext(ctx, s.q(query), name).Scan(&n)
	return n > 0, err
}

// reindex derives every indexed column and table (but tags, which are the
// user's) again from the stored documents. A result whose document no
// longer parses keeps its columns and tables, and gets its list row from
// them.
func (s *sqlStore) reindex(ctx context.Context, tx *sql.Tx) error {
	tags, err := allTags(ctx, tx)
	if err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT id, doc FROM result_docs`)
	if err != nil {
		return err
	}
	type row struct{ id, doc string }
	var all []row
	for rows.Next() {
		var r row
		if err := rows.Scan(&r.id, &r.doc); err != nil {
			rows.Close()
			return err
		}
		all = append(all, r)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, r := range all {
		rec, err := Index([]byte(r.doc))
		if err != nil {
			// A document that no longer parses keeps its old columns.
			if rec, err = s.recordFromTables(ctx, tx, r.id); err != nil {
				return err
			}
			lc := lowerColumns(rec)
			if _, err := tx.ExecContext(ctx, s.q(`UPDATE results SET list_row = ?, board_lc = ?, soc_lc = ?, core_types_lc = ?, kernel_lc = ?,
				search_lc = ? WHERE id = ?`), encodeListRow(rec), lc[0], lc[1], lc[2], lc[3], lc[4], r.id); err != nil {
				return err
			}
			rec.ID = r.id
			if err := s.writeFigureFilters(ctx, tx, rec); err != nil {
				return err
			}
			continue
		}
		rec.ID = r.id
		rec.Tags = append([]string{}, tags[r.id]...)
		if err := s.writeIndex(ctx, tx, rec, false); err != nil {
			return err
		}
	}
	return s.recount(ctx, tx)
}

// querier is what *sql.DB and *sql.Tx share for reading.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// allTags returns every result's tags, in tag order.
func allTags(ctx context.Context, q querier) (map[string][]string, error) {
	rows, err := q.QueryContext(ctx, `SELECT result_id, tag FROM result_tags ORDER BY result_id, tag`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string][]string{}
	for rows.Next() {
		var id, tag string
		if err := rows.Scan(&id, &tag); err != nil {
			return nil, err
		}
		out[id] = append(out[id], tag)
	}
	return out, rows.Err()
}

// recordFromTables reads the record of id from its columns and from the
// tag, finding, tool and figure tables: the list row of a result whose
// document no longer parses, and what List and Record fall back to when a
// list row does not decode.
func (s *sqlStore) recordFromTables(ctx context.Context, q querier, id string) (Record, error) {
	rec := Record{Tags: []string{}, FindingIDs: []string{}, Tools: map[string]string{}, Figures: map[string]float64{}}
	var created string
	var valid int64
	err := q.QueryRowContext(ctx, s.q(`SELECT id, kind, board, soc, core_types, kernel, distro, arch, host, created_at, status, valid
		FROM results WHERE id = ?`), id).Scan(&rec.ID, &rec.Kind, &rec.Board, &rec.SoC, &rec.CoreTypes, &rec.Kernel, &rec.Distro,
		&rec.Arch, &rec.Host, &created, &rec.Status, &valid)
	if errors.Is(err, sql.ErrNoRows) {
		return Record{}, fmt.Errorf("%s: %w", quoteID(id), ErrNotFound)
	}
	if err != nil {
		return Record{}, err
	}
	rec.CreatedAt, rec.Valid = parseTime(created), valid != 0
	read := func(query string, add func(k, v string)) error {
		rows, err := q.QueryContext(ctx, s.q(query), id)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var k, v string
			if err := rows.Scan(&k, &v); err != nil {
				return err
			}
			add(k, v)
		}
		return rows.Err()
	}
	for _, step := range []struct {
		query string
		add   func(k, v string)
	}{
		{`SELECT tag, '' FROM result_tags WHERE result_id = ? ORDER BY tag`, func(k, _ string) { rec.Tags = append(rec.Tags, k) }},
		{`SELECT finding_id, '' FROM result_findings WHERE result_id = ? ORDER BY finding_id`, func(k, _ string) { rec.FindingIDs = append(rec.FindingIDs, k) }},
		{`SELECT name, version FROM result_tools WHERE result_id = ?`, func(k, v string) { rec.Tools[k] = v }},
		{`SELECT name, CAST(value AS TEXT) FROM result_figures WHERE result_id = ?`, func(k, v string) {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				rec.Figures[k] = f
			}
		}},
	} {
		if err := read(step.query, step.add); err != nil {
			return Record{}, err
		}
	}
	return rec, nil
}

// writeIndex writes rec's columns and list row (an UPDATE of an existing
// row: rec.Tags must be the stored tags) and its child rows but tags;
// insert says the row is new and its columns are written already.
func (s *sqlStore) writeIndex(ctx context.Context, tx *sql.Tx, rec Record, insert bool) error {
	if !insert {
		lc := lowerColumns(rec)
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE results SET kind = ?, board = ?, soc = ?, core_types = ?, kernel = ?, distro = ?,
			arch = ?, host = ?, created_at = ?, status = ?, valid = ?, list_row = ?,
			board_lc = ?, soc_lc = ?, core_types_lc = ?, kernel_lc = ?, search_lc = ? WHERE id = ?`),
			rec.Kind, rec.Board, rec.SoC, rec.CoreTypes, rec.Kernel, rec.Distro, rec.Arch, rec.Host,
			formatTime(rec.CreatedAt), rec.Status, boolInt(rec.Valid), encodeListRow(rec),
			lc[0], lc[1], lc[2], lc[3], lc[4], rec.ID); err != nil {
			return err
		}
		for _, t := range []string{"result_figures", "result_figure_filters", "result_findings", "result_tools"} {
			if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM `+t+` WHERE result_id = ?`), rec.ID); err != nil {
				return err
			}
		}
	}
	var figs, figFilters, finds, tools [][]any
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
	if err := s.insertRows(ctx, tx, figureInsert, figs, ""); err != nil {
		return err
	}
	if err := s.insertRows(ctx, tx, figureFilterInsert, figFilters, ""); err != nil {
		return err
	}
	if err := s.insertRows(ctx, tx, `INSERT INTO result_findings (result_id, finding_id) VALUES `, finds, " ON CONFLICT DO NOTHING"); err != nil {
		return err
	}
	return s.insertRows(ctx, tx, `INSERT INTO result_tools (result_id, name, version) VALUES `, tools, "")
}

// insertRows inserts rows (each of the same width) with as few INSERT
// statements as the databases' limits on parameters allow: one per result
// in practice, instead of one per figure.
func (s *sqlStore) insertRows(ctx context.Context, tx *sql.Tx, head string, rows [][]any, tail string) error {
	const perStatement = 1000
	for len(rows) > 0 {
		n := min(len(rows), perStatement)
		var b strings.Builder
		b.WriteString(head)
		args := make([]any, 0, n*len(rows[0]))
		for i, r := range rows[:n] {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("(" + strings.TrimSuffix(strings.Repeat("?, ", len(r)), ", ") + ")")
			args = append(args, r...)
		}
		b.WriteString(tail)
		if _, err := tx.ExecContext(ctx, s.q(b.String()), args...); err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}

// figureInsert and figureRow write a figure with its result's kind,
// validity and lower-cased SoC (migration 5).
const figureInsert = `INSERT INTO result_figures (result_id, name, value, kind, valid, soc_lc) VALUES `

func figureRow(rec Record, name string) []any {
	return []any{rec.ID, name, rec.Figures[name], rec.Kind, boolInt(rec.Valid), strings.ToLower(rec.SoC)}
}

// writeFigureFilters writes rec's rows of result_figure_filters again.
func (s *sqlStore) writeFigureFilters(ctx context.Context, tx *sql.Tx, rec Record) error {
	if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM result_figure_filters WHERE result_id = ?`), rec.ID); err != nil {
		return err
	}
	var rows [][]any
	for _, name := range slices.Sorted(maps.Keys(rec.Figures)) {
		if headlineFigure(name) {
			rows = append(rows, figureFilterRow(rec, name))
		}
	}
	return s.insertRows(ctx, tx, figureFilterInsert, rows, "")
}

// figureFilterInsert and figureFilterRow write a headline figure with
// every filtered column of its result (migration 8).
const figureFilterInsert = `INSERT INTO result_figure_filters (result_id, name, value, kind, valid, created_at,
	soc_lc, board_lc, core_types_lc, kernel_lc, search_lc) VALUES `

func figureFilterRow(rec Record, name string) []any {
	lc := lowerColumns(rec)
	return []any{rec.ID, name, rec.Figures[name], rec.Kind, boolInt(rec.Valid), formatTime(rec.CreatedAt),
		lc[1], lc[0], lc[2], lc[3], lc[4]}
}

// lowerColumns returns the lower-cased columns of rec that the substring
// filters match (migration 5): board, SoC, core types, kernel, and the
// search column of the table's text field (board, SoC, kernel,
// distribution and host, one a line).
func lowerColumns(rec Record) [5]string {
	l := strings.ToLower
	return [5]string{l(rec.Board), l(rec.SoC), l(rec.CoreTypes), l(rec.Kernel),
		l(rec.Board + searchSep + rec.SoC + searchSep + rec.Kernel + searchSep + rec.Distro + searchSep + rec.Host)}
}

// searchSep separates the fields of the search column: a line break, which
// a filter typed in serve cannot hold (control characters are refused), so
// that a match never straddles two fields. A Query.Text holding one is
// matched field by field instead.
const searchSep = "\n"

// countResult changes the count of rec's (kind, SoC, validity) in
// result_counts by delta (+1 when a result is stored, -1 when removed).
func (s *sqlStore) countResult(ctx context.Context, tx *sql.Tx, kind, soc string, valid int, delta int) error {
	_, err := tx.ExecContext(ctx, s.q(`INSERT INTO result_counts (kind, soc, valid, soc_lc, n) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (kind, soc, valid) DO UPDATE SET n = result_counts.n + excluded.n`), kind, soc, valid, strings.ToLower(soc), delta)
	return err
}

// recount derives result_counts from the results again (after a migration).
func (s *sqlStore) recount(ctx context.Context, tx *sql.Tx) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM result_counts`); err != nil {
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO result_counts (kind, soc, valid, soc_lc, n)
		SELECT kind, soc, valid, MIN(soc_lc), COUNT(*) FROM results GROUP BY kind, soc, valid`)
	return err
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Put implements Store.
func (s *sqlStore) Put(ctx context.Context, doc []byte) (string, bool, error) {
	rec, err := Index(doc)
	if err != nil {
		return "", false, err
	}
	tx, err := s.begin(ctx)
	if err != nil {
		return "", false, err
	}
	defer tx.Rollback()
	lc := lowerColumns(rec)
	res, err := tx.ExecContext(ctx, s.q(`INSERT INTO results (id, kind, board, soc, core_types, kernel, distro, arch, host, created_at,
		status, valid, list_row, stored_at, board_lc, soc_lc, core_types_lc, kernel_lc, search_lc)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO NOTHING`),
		rec.ID, rec.Kind, rec.Board, rec.SoC, rec.CoreTypes, rec.Kernel, rec.Distro, rec.Arch, rec.Host, formatTime(rec.CreatedAt),
		rec.Status, boolInt(rec.Valid), encodeListRow(rec), formatTime(time.Now()), lc[0], lc[1], lc[2], lc[3], lc[4])
	if err != nil {
		return "", false, err
	}
	n, err := res.RowsAffected()
	if err != nil {
		return "", false, err
	}
	if n == 0 {
		return rec.ID, false, nil
	}
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO result_docs (id, doc) VALUES (?, ?)`), rec.ID, string(doc)); err != nil {
		return "", false, err
	}
	if err := s.writeIndex(ctx, tx, rec, true); err != nil {
		return "", false, err
	}
	if err := s.countResult(ctx, tx, rec.Kind, rec.SoC, boolInt(rec.Valid), 1); err != nil {
		return "", false, err
	}
	if err := tx.Commit(); err != nil {
		return "", false, err
	}
	return rec.ID, true, nil
}

// Get implements Store.
func (s *sqlStore) Get(ctx context.Context, id string) ([]byte, error) {
	var doc string
	err := s.db.QueryRowContext(ctx, s.q(`SELECT doc FROM result_docs WHERE id = ?`), id).Scan(&doc)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%s: %w", quoteID(id), ErrNotFound)
	}
	return []byte(doc), err
}

// quoteID keeps an id quoted in a message short.
func quoteID(id string) string {
	if r := []rune(id); len(r) > 40 {
		id = string(r[:40]) + "…"
	}
	return strconv.Quote(id)
}

// Record implements Store.
func (s *sqlStore) Record(ctx context.Context, id string) (Record, error) {
	var row string
	err := s.db.QueryRowContext(ctx, s.q(`SELECT list_row FROM results WHERE id = ?`), id).Scan(&row)
	if errors.Is(err, sql.ErrNoRows) {
		return Record{}, fmt.Errorf("%s: %w", quoteID(id), ErrNotFound)
	}
	if err != nil {
		return Record{}, err
	}
	if rec, err := decodeListRow(row, nil); err == nil {
		return rec, nil
	}
	return s.recordFromTables(ctx, s.db, id)
}

// sortColumns are the columns of the results table (r) Query.Sort may
// name.
var sortColumns = [...]string{"created_at", "board", "soc", "kernel", "kind",
	"distro", "arch", "host", "status", "valid", "core_types", "id"}

// sortColumn returns the SQL column Query.Sort's name stands for ("board":
// "r.board"); ok is false for a name that is not a column.
func sortColumn(name string) (col string, ok bool) {
	if !slices.Contains(sortColumns[:], name) {
		return "", false
	}
	return "r." + name, true
}

// SortColumns returns the column names Query.Sort accepts besides figure
// names.
func SortColumns() []string {
	return slices.Clone(sortColumns[:])
}

// figureName is the form of a figure name Query.Sort accepts.
var figureName = lazyre.Regexp(`^[A-Za-z0-9_][A-Za-z0-9_.\-]{0,127}$`)

// ValidateQuery checks q's sort key and page before any SQL is built.
func ValidateQuery(q Query) error {
	if q.Offset < 0 || q.Limit < 0 {
		return fmt.Errorf("offset and limit must not be negative")
	}
	if q.Sort == "" {
		return nil
	}
	if _, ok := sortColumn(q.Sort); ok || figureName.MatchString(q.Sort) {
		return nil
	}
	return fmt.Errorf("unknown sort key %s (a column such as created_at, board, soc, kernel, or a figure name)", quoteID(q.Sort))
}

// List implements Store: the page's ids are found first by the indexes
// alone (filters, order, offset), then only those rows' list rows are
// read (sqlquery.go).
func (s *sqlStore) List(ctx context.Context, q Query) ([]Record, int, error) {
	if q.Offset > 0 && countable(q) {
		// A kept total costs nothing: a page past it is not walked to.
		if err := ValidateQuery(q); err != nil {
			return nil, 0, err
		}
		total, err := s.count(ctx, q)
		if err != nil || q.Offset >= total {
			return []Record{}, total, err
		}
	}
	var recs []Record
	if err := s.each(ctx, q, func(r Record) error { recs = append(recs, r); return nil }); err != nil {
		return nil, 0, err
	}
	if recs == nil {
		recs = []Record{}
	}
	if q.Limit == 0 && q.Offset == 0 {
		return recs, len(recs), nil
	}
	total, err := s.count(ctx, q)
	if err != nil {
		return nil, 0, err
	}
	return recs, total, nil
}

// Tag implements Store.
func (s *sqlStore) Tag(ctx context.Context, id, tag string) error {
	tag = strings.TrimSpace(tag)
	if tag == "" {
		return fmt.Errorf("a tag must not be empty")
	}
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var row string
	err = tx.QueryRowContext(ctx, s.q(`SELECT list_row FROM results WHERE id = ?`), id).Scan(&row)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", quoteID(id), ErrNotFound)
	}
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO result_tags (result_id, tag) VALUES (?, ?) ON CONFLICT DO NOTHING`), id, tag); err != nil {
		return err
	}
	tags := []string{}
	rows, err := tx.QueryContext(ctx, s.q(`SELECT tag FROM result_tags WHERE result_id = ? ORDER BY tag`), id)
	if err != nil {
		return err
	}
	for rows.Next() {
		var t string
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return err
		}
		tags = append(tags, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	rec, err := decodeListRow(row, nil)
	if err != nil {
		if rec, err = s.recordFromTables(ctx, tx, id); err != nil {
			return err
		}
	}
	rec.Tags = tags
	if _, err := tx.ExecContext(ctx, s.q(`UPDATE results SET list_row = ? WHERE id = ?`), encodeListRow(rec), id); err != nil {
		return err
	}
	return tx.Commit()
}

// Remove implements Store.
func (s *sqlStore) Remove(ctx context.Context, id string) error {
	tx, err := s.begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var kind, soc string
	var valid int
	err = tx.QueryRowContext(ctx, s.q(`SELECT kind, soc, valid FROM results WHERE id = ?`), id).Scan(&kind, &soc, &valid)
	if errors.Is(err, sql.ErrNoRows) {
		return fmt.Errorf("%s: %w", quoteID(id), ErrNotFound)
	}
	if err != nil {
		return err
	}
	if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM results WHERE id = ?`), id); err != nil {
		return err
	}
	if err := s.countResult(ctx, tx, kind, soc, valid, -1); err != nil {
		return err
	}
	for _, t := range []string{"result_tags", "result_figures", "result_figure_filters", "result_findings", "result_tools"} {
		if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM `+t+` WHERE result_id = ?`), id); err != nil {
			return err
		}
	}
	if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM result_docs WHERE id = ?`), id); err != nil {
		return err
	}
	return tx.Commit()
}

// Close implements Store.
func (s *sqlStore) Close() error {
	err := s.db.Close()
	if s.closeFn != nil {
		if e := s.closeFn(); err == nil {
			err = e
		}
	}
	return err
}

// Where returns the store's path, or its URL without password.
func (s *sqlStore) Where() string { return s.where }
