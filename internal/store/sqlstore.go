package store

import (
	"boardbench/internal/lazyre"
	"context"
	"database/sql"
	"errors"
	"fmt"
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
}

// ErrNewerSchema is returned (wrapped) by Open for a store written by a
// newer boardbench: nothing is changed in it.
var ErrNewerSchema = errors.New("the store was written by a newer boardbench")

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
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("store %s: migration to schema version %d: %w", s.where, v+1, err)
			}
		}
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO schema_migrations (version, applied_at, boardbench) VALUES (?, ?, ?)`),
			v+1, now, buildinfo.Get().Version); err != nil {
			return fmt.Errorf("store %s: migration to schema version %d: %w", s.where, v+1, err)
		}
	}
	if current > 0 {
		if err := s.reindex(ctx, tx); err != nil {
			return fmt.Errorf("store %s: indexing the stored results again: %w", s.where, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store %s: %w", s.where, err)
	}
	return nil
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
			if _, err := tx.ExecContext(ctx, s.q(`UPDATE results SET list_row = ? WHERE id = ?`), encodeListRow(rec), r.id); err != nil {
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
	return nil
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
		if _, err := tx.ExecContext(ctx, s.q(`UPDATE results SET kind = ?, board = ?, soc = ?, core_types = ?, kernel = ?, distro = ?,
			arch = ?, host = ?, created_at = ?, status = ?, valid = ?, list_row = ? WHERE id = ?`),
			rec.Kind, rec.Board, rec.SoC, rec.CoreTypes, rec.Kernel, rec.Distro, rec.Arch, rec.Host,
			formatTime(rec.CreatedAt), rec.Status, boolInt(rec.Valid), encodeListRow(rec), rec.ID); err != nil {
			return err
		}
		for _, t := range []string{"result_figures", "result_findings", "result_tools"} {
			if _, err := tx.ExecContext(ctx, s.q(`DELETE FROM `+t+` WHERE result_id = ?`), rec.ID); err != nil {
				return err
			}
		}
	}
	for name, v := range rec.Figures {
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO result_figures (result_id, name, value) VALUES (?, ?, ?)`), rec.ID, name, v); err != nil {
			return err
		}
	}
	for _, f := range rec.FindingIDs {
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO result_findings (result_id, finding_id) VALUES (?, ?) ON CONFLICT DO NOTHING`), rec.ID, f); err != nil {
			return err
		}
	}
	for name, v := range rec.Tools {
		if _, err := tx.ExecContext(ctx, s.q(`INSERT INTO result_tools (result_id, name, version) VALUES (?, ?, ?)`), rec.ID, name, v); err != nil {
			return err
		}
	}
	return nil
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
	res, err := tx.ExecContext(ctx, s.q(`INSERT INTO results (id, kind, board, soc, core_types, kernel, distro, arch, host, created_at,
		status, valid, list_row, stored_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO NOTHING`),
		rec.ID, rec.Kind, rec.Board, rec.SoC, rec.CoreTypes, rec.Kernel, rec.Distro, rec.Arch, rec.Host, formatTime(rec.CreatedAt),
		rec.Status, boolInt(rec.Valid), encodeListRow(rec), formatTime(time.Now()))
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

// sortColumns are the columns Query.Sort may name.
var sortColumns = map[string]string{
	"created_at": "r.created_at", "board": "r.board", "soc": "r.soc", "kernel": "r.kernel", "kind": "r.kind",
	"distro": "r.distro", "arch": "r.arch", "host": "r.host", "status": "r.status", "valid": "r.valid",
	"core_types": "r.core_types", "id": "r.id",
}

// SortColumns returns the column names Query.Sort accepts besides figure
// names.
func SortColumns() []string {
	out := make([]string, 0, len(sortColumns))
	for k := range sortColumns {
		out = append(out, k)
	}
	return out
}

// figureName is the form of a figure name Query.Sort accepts.
var figureName = lazyre.New(`^[A-Za-z0-9_][A-Za-z0-9_.\-]{0,127}$`)

// ValidateQuery checks q's sort key and page before any SQL is built.
func ValidateQuery(q Query) error {
	if q.Offset < 0 || q.Limit < 0 {
		return fmt.Errorf("offset and limit must not be negative")
	}
	if q.Sort == "" {
		return nil
	}
	if _, ok := sortColumns[q.Sort]; ok || figureName.MatchString(q.Sort) {
		return nil
	}
	return fmt.Errorf("unknown sort key %s (a column such as created_at, board, soc, kernel, or a figure name)", quoteID(q.Sort))
}

// likeEscape escapes s for a LIKE pattern with '\' as the escape.
func likeEscape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(s)
}

// List implements Store.
func (s *sqlStore) List(ctx context.Context, q Query) ([]Record, int, error) {
	if err := ValidateQuery(q); err != nil {
		return nil, 0, err
	}
	var where []string
	var args []any
	eq := func(col, v string) {
		if v != "" {
			where = append(where, col+" = ?")
			args = append(args, v)
		}
	}
	contains := func(col, v string) { // case-insensitive substring, as typed in a filter
		if v != "" {
			where = append(where, `LOWER(`+col+`) LIKE ? ESCAPE '\'`)
			args = append(args, "%"+likeEscape(strings.ToLower(v))+"%")
		}
	}
	contains("r.board", q.Board)
	contains("r.soc", q.SoC)
	contains("r.kernel", q.Kernel)
	eq("r.kind", q.Kind)
	if q.Kind == "" && q.IDPrefix == "" {
		// A replay of a recorded root is no measurement of a machine:
		// listed only when asked for by kind (or by id).
		where = append(where, "r.kind <> ?")
		args = append(args, KindReplay)
	}
	contains("r.core_types", q.CoreType)
	if q.IDPrefix != "" {
		where = append(where, `r.id LIKE ? ESCAPE '\'`)
		args = append(args, likeEscape(q.IDPrefix)+"%")
	}
	if q.Tag != "" {
		where = append(where, `EXISTS (SELECT 1 FROM result_tags t WHERE t.result_id = r.id AND t.tag = ?)`)
		args = append(args, q.Tag)
	}
	if q.Text != "" {
		p := "%" + likeEscape(strings.ToLower(q.Text)) + "%"
		var ors []string
		for _, c := range []string{"r.board", "r.soc", "r.kernel", "r.distro", "r.host"} {
			ors = append(ors, `LOWER(`+c+`) LIKE ? ESCAPE '\'`)
			args = append(args, p)
		}
		where = append(where, "("+strings.Join(ors, " OR ")+")")
	}
	if !q.Since.IsZero() {
		where = append(where, "r.created_at >= ?")
		args = append(args, formatTime(q.Since))
	}
	if q.ValidOnly {
		where = append(where, "r.valid = 1")
	}
	cond := ""
	if len(where) > 0 {
		cond = " WHERE " + strings.Join(where, " AND ")
	}
	dir := " ASC"
	if q.Desc {
		dir = " DESC"
	}
	from := " FROM results r"
	var order string
	var sortArgs []any
	switch col, ok := sortColumns[q.Sort]; {
	case q.Sort == "":
		order = "r.created_at DESC, r.id DESC" // newest first, whatever Desc says
	case ok:
		order = col + dir + ", r.id" + dir
	default:
		from += " LEFT JOIN result_figures f ON f.result_id = r.id AND f.name = ?"
		sortArgs = append(sortArgs, q.Sort)
		order = "CASE WHEN f.value IS NULL THEN 1 ELSE 0 END, f.value" + dir + ", r.id" + dir
	}
	query := `SELECT r.id, r.list_row` + from + cond + ` ORDER BY ` + order
	all := append(sortArgs, args...)
	if q.Limit > 0 {
		query += ` LIMIT ? OFFSET ?`
		all = append(all, q.Limit, q.Offset)
	} else if q.Offset > 0 {
		query += ` LIMIT -1 OFFSET ?`
		if s.d.postgres {
			query = strings.TrimSuffix(query, ` LIMIT -1 OFFSET ?`) + ` OFFSET ?`
		}
		all = append(all, q.Offset)
	}
	recs, undecoded, err := s.listRows(ctx, s.q(query), all)
	if err != nil {
		return nil, 0, err
	}
	for _, i := range undecoded {
		if recs[i], err = s.recordFromTables(ctx, s.db, recs[i].ID); err != nil {
			return nil, 0, err
		}
	}
	total := len(recs)
	if q.Limit > 0 || q.Offset > 0 {
		if err := s.db.QueryRowContext(ctx, s.q(`SELECT COUNT(*) FROM results r`+cond), args...).Scan(&total); err != nil {
			return nil, 0, err
		}
	}
	return recs, total, nil
}

// listRows runs a query of (id, list_row) and decodes the rows; undecoded
// are the indexes of the records whose list row did not decode (only
// their ID is set).
func (s *sqlStore) listRows(ctx context.Context, query string, args []any) (recs []Record, undecoded []int, err error) {
	rows, err := s.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, nil, err
	}
	defer rows.Close()
	recs = []Record{}
	names := map[string]string{}
	for rows.Next() {
		var id, row string
		if err := rows.Scan(&id, &row); err != nil {
			return nil, nil, err
		}
		rec, err := decodeListRow(row, names)
		if err != nil || rec.ID != id {
			rec, undecoded = Record{ID: id}, append(undecoded, len(recs))
		}
		recs = append(recs, rec)
	}
	return recs, undecoded, rows.Err()
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
	res, err := tx.ExecContext(ctx, s.q(`DELETE FROM results WHERE id = ?`), id)
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return fmt.Errorf("%s: %w", quoteID(id), ErrNotFound)
	}
	for _, t := range []string{"result_tags", "result_figures", "result_findings", "result_tools"} {
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
