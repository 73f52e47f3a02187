package store

// The schema, one for SQLite and PostgreSQL: the SQL below uses only what
// both understand (TEXT, INTEGER, DOUBLE PRECISION, ON CONFLICT). Times are
// TEXT in one fixed-width UTC format (timeFormat), so that text order is
// time order in both databases.
//
// migrations[i] takes a store from version i to version i+1. A migration is
// never edited once released: a change of schema is a new migration. After
// the migrations that a store lacked, every stored document is indexed
// again (reindex), so that a column added by a migration is filled for the
// results stored before it.
var migrations = [][]string{
	// 1: results with their verbatim document, tags, figures.
	{
		`CREATE TABLE results (
			id TEXT PRIMARY KEY,
			kind TEXT NOT NULL,
			board TEXT NOT NULL,
			soc TEXT NOT NULL,
			core_types TEXT NOT NULL,
			kernel TEXT NOT NULL,
			distro TEXT NOT NULL,
			arch TEXT NOT NULL,
			host TEXT NOT NULL,
			created_at TEXT NOT NULL,
			status TEXT NOT NULL,
			valid INTEGER NOT NULL,
			tags TEXT NOT NULL,
			figures TEXT NOT NULL,
			doc TEXT NOT NULL,
			stored_at TEXT NOT NULL
		)`,
		`CREATE INDEX results_created_at ON results (created_at)`,
		`CREATE INDEX results_board ON results (board)`,
		`CREATE INDEX results_soc ON results (soc)`,
		`CREATE INDEX results_kernel ON results (kernel)`,
		`CREATE TABLE result_tags (
			result_id TEXT NOT NULL,
			tag TEXT NOT NULL,
			PRIMARY KEY (result_id, tag)
		)`,
		`CREATE INDEX result_tags_tag ON result_tags (tag)`,
		`CREATE TABLE result_figures (
			result_id TEXT NOT NULL,
			name TEXT NOT NULL,
			value DOUBLE PRECISION NOT NULL,
			PRIMARY KEY (result_id, name)
		)`,
		`CREATE INDEX result_figures_name_value ON result_figures (name, value)`,
	},
	// 2: finding ids and tool versions, as columns and as indexed tables;
	// indexes on the other filter columns.
	{
		`ALTER TABLE results ADD COLUMN finding_ids TEXT NOT NULL DEFAULT '[]'`,
		`ALTER TABLE results ADD COLUMN tools TEXT NOT NULL DEFAULT '{}'`,
		`CREATE TABLE result_findings (
			result_id TEXT NOT NULL,
			finding_id TEXT NOT NULL,
			PRIMARY KEY (result_id, finding_id)
		)`,
		`CREATE INDEX result_findings_finding ON result_findings (finding_id)`,
		`CREATE TABLE result_tools (
			result_id TEXT NOT NULL,
			name TEXT NOT NULL,
			version TEXT NOT NULL,
			PRIMARY KEY (result_id, name)
		)`,
		`CREATE INDEX result_tools_name_version ON result_tools (name, version)`,
		`CREATE INDEX results_kind ON results (kind)`,
		`CREATE INDEX results_distro ON results (distro)`,
		`CREATE INDEX results_arch ON results (arch)`,
		`CREATE INDEX results_core_types ON results (core_types)`,
		`CREATE INDEX results_host ON results (host)`,
		`CREATE INDEX results_status_valid ON results (status, valid)`,
	},
	// 3: the documents in a table of their own, so that listing the
	// columns does not read through every document (a list of 10,000
	// results read 35 MB of them).
	{
		`CREATE TABLE result_docs (
			id TEXT PRIMARY KEY,
			doc TEXT NOT NULL
		)`,
		`INSERT INTO result_docs (id, doc) SELECT id, doc FROM results`,
		`ALTER TABLE results DROP COLUMN doc`,
	},
	// 4: the list row (listrow.go), which List and Record read instead of
	// a column per field and JSON columns, so that a list of 10,000
	// results takes tens of milliseconds; the JSON columns it replaces
	// dropped (their values are in the list row and in the tag, figure,
	// finding and tool tables); an index in the default order (newest
	// first, then by id), so that it needs no sort.
	{
		`ALTER TABLE results ADD COLUMN list_row TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE results DROP COLUMN tags`,
		`ALTER TABLE results DROP COLUMN figures`,
		`ALTER TABLE results DROP COLUMN finding_ids`,
		`ALTER TABLE results DROP COLUMN tools`,
		`DROP INDEX results_created_at`,
		`CREATE INDEX results_created_at_id ON results (created_at, id)`,
	},
	// 5: scale (a million results behind serve). Lower-cased copies of
	// the filtered text columns (written by the store in Go, so that
	// "any case" means the same in both databases) and a search column
	// for the table's text field; on PostgreSQL trigram indexes on them,
	// which serve the substring filters. A small table of counts per
	// (kind, SoC, validity), kept up to date by every write, that gives
	// serve's SoC menu and the unfiltered and SoC-filtered totals without
	// reading the results. Indexes that give the pages' orders without a
	// sort and without reading the rows: the default order with kind and
	// validity in it, a figure's (name, value, result) and, on
	// PostgreSQL, the ids in byte order for short ids (the primary key
	// cannot serve a prefix under a collation other than C).
	{
		`ALTER TABLE results ADD COLUMN board_lc TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE results ADD COLUMN soc_lc TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE results ADD COLUMN core_types_lc TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE results ADD COLUMN kernel_lc TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE results ADD COLUMN search_lc TEXT NOT NULL DEFAULT ''`,
		`CREATE TABLE result_counts (
			kind TEXT NOT NULL,
			soc TEXT NOT NULL,
			valid INTEGER NOT NULL,
			soc_lc TEXT NOT NULL,
			n INTEGER NOT NULL,
			PRIMARY KEY (kind, soc, valid)
		)`,
		`DROP INDEX results_created_at_id`,
		`CREATE INDEX results_order ON results (created_at, id, kind, valid, soc_lc)`,
		// The same order with every filtered column: a filtered page in
		// the default order is found in this index alone (the narrow one
		// above serves the unfiltered pages, deep ones included).
		`CREATE INDEX results_order_filters ON results (created_at, id, kind, valid, soc_lc, board_lc, core_types_lc, kernel_lc, search_lc)`,
		// A figure row carries its result's kind, validity and SoC, so
		// that a figure sort filtered by them (the table's SoC menu and
		// "valid only") is read from this index alone.
		`ALTER TABLE result_figures ADD COLUMN kind TEXT NOT NULL DEFAULT ''`,
		`ALTER TABLE result_figures ADD COLUMN valid INTEGER NOT NULL DEFAULT 0`,
		`ALTER TABLE result_figures ADD COLUMN soc_lc TEXT NOT NULL DEFAULT ''`,
		`DROP INDEX result_figures_name_value`,
		`CREATE INDEX result_figures_sort ON result_figures (name, value, result_id, kind, valid, soc_lc)`,
		pgOnly + `CREATE INDEX results_id_bytes ON results (id text_pattern_ops)`,
		// The filtered columns by id, so that checking a result found in
		// a figure's order against the filters reads no row.
		pgOnly + `CREATE INDEX results_filters ON results (id) INCLUDE (created_at, kind, valid, soc_lc, core_types_lc, kernel_lc, board_lc)`,
		sqliteOnly + `CREATE INDEX results_filters ON results (id, created_at, kind, valid, soc_lc, core_types_lc, kernel_lc, board_lc)`,
		pgOptional + `CREATE EXTENSION IF NOT EXISTS pg_trgm`,
		pgOptional + `CREATE INDEX results_board_trgm ON results USING gin (board_lc gin_trgm_ops)`,
		pgOptional + `CREATE INDEX results_soc_trgm ON results USING gin (soc_lc gin_trgm_ops)`,
		pgOptional + `CREATE INDEX results_core_types_trgm ON results USING gin (core_types_lc gin_trgm_ops)`,
		pgOptional + `CREATE INDEX results_kernel_trgm ON results USING gin (kernel_lc gin_trgm_ops)`,
		pgOptional + `CREATE INDEX results_search_trgm ON results USING gin (search_lc gin_trgm_ops)`,
	},
	// 6: lab: upload tokens (only their SHA-256 kept), who uploaded each
	// result, and the results a board could not push yet (lab.go).
	{
		`CREATE TABLE lab_tokens (
			name TEXT PRIMARY KEY,
			hash TEXT NOT NULL UNIQUE,
			created_at TEXT NOT NULL,
			revoked_at TEXT NOT NULL DEFAULT ''
		)`,
		`CREATE TABLE result_uploads (
			result_id TEXT PRIMARY KEY,
			token_name TEXT NOT NULL,
			uploaded_at TEXT NOT NULL
		)`,
		`CREATE INDEX result_uploads_token ON result_uploads (token_name)`,
		`CREATE TABLE pending_pushes (
			result_id TEXT NOT NULL,
			target TEXT NOT NULL,
			added_at TEXT NOT NULL,
			attempts INTEGER NOT NULL,
			last_error TEXT NOT NULL,
			PRIMARY KEY (result_id, target)
		)`,
	},
	// 7: filtered deep pages. The date order per SoC (lower-cased), with
	// kind and validity, and the headline figures' order per SoC: a SoC
	// filter is resolved to the SoCs it matches (from result_counts), and
	// each one's page is walked in these indexes, so that an offset skips
	// only the matching results (sqlquery.go, socPage, socFigurePage). Indexes only: no column changes, so the
	// stored results need no indexing again.
	{
		`CREATE INDEX results_soc_order ON results (soc_lc, created_at, id, kind, valid)`,
		// The same for the figures serve's table sorts by (headlineFigure):
		// a figure sort under a SoC filter walks each SoC's figure rows.
		`CREATE INDEX result_figures_soc_sort ON result_figures (name, soc_lc, value, result_id, kind, valid)
			WHERE name IN (` + headlineFigureList + `)`,
	},
	// 8: a figure sort under a filter the figure rows do not carry (the
	// text field, kernel, core type, board, since). For the headline
	// figures, a row per figure with every filtered column of its
	// result, in the figure's order: such a page is walked in this index
	// alone, where it read each walked result's row (sqlquery.go,
	// figureFilters). Kept by every write; a store migrated to 8 gets its
	// rows from the results and figures already stored (fillFigureFilters
	// after the migrations, or the re-index).
	{
		`CREATE TABLE result_figure_filters (
			result_id TEXT NOT NULL,
			name TEXT NOT NULL,
			value DOUBLE PRECISION NOT NULL,
			kind TEXT NOT NULL,
			valid INTEGER NOT NULL,
			created_at TEXT NOT NULL,
			soc_lc TEXT NOT NULL,
			board_lc TEXT NOT NULL,
			core_types_lc TEXT NOT NULL,
			kernel_lc TEXT NOT NULL,
			search_lc TEXT NOT NULL,
			PRIMARY KEY (result_id, name)
		)`,
		pgOnly + `CREATE INDEX result_figure_filters_sort ON result_figure_filters (name, value, result_id)
			INCLUDE (kind, valid, created_at, soc_lc, board_lc, core_types_lc, kernel_lc, search_lc)`,
		sqliteOnly + `CREATE INDEX result_figure_filters_sort ON result_figure_filters (name, value, result_id,
			kind, valid, created_at, soc_lc, board_lc, core_types_lc, kernel_lc, search_lc)`,
	},
}

// headlineFigureList is the WHERE of the partial index
// result_figures_soc_sort (migration 7: never to be edited), which a
// query repeats word for word so that SQLite uses the index (it does not
// derive "name IN (...)" from "name = '...'").
const headlineFigureList = `'sevenzip_multi_mips', 'sevenzip_single_mips.max', 'aes256_16k.max', 'memcpy_mb_s.max', 'memset_mb_s.max', 'clock_mhz.max'`

// fillFigureFilters derives result_figure_filters (migration 8) from the
// stored results and their figures: what a store migrated from version
// 6 or 7, which is not indexed again, runs once after its migrations. It
// is not a statement of migration 8 itself: run by each of several
// processes creating a new SQLite store at once (the board build's
// driver), it made the others fail with "database is locked".
const fillFigureFilters = `INSERT INTO result_figure_filters (result_id, name, value, kind, valid, created_at, soc_lc, board_lc, core_types_lc, kernel_lc, search_lc)
	SELECT f.result_id, f.name, f.value, r.kind, r.valid, r.created_at, r.soc_lc, r.board_lc, r.core_types_lc, r.kernel_lc, r.search_lc
	FROM result_figures f JOIN results r ON r.id = f.result_id WHERE f.name IN (` + headlineFigureList + `)`

// derivesNothing lists the schema versions whose migration adds no
// column or table derived from the documents (only indexes, or tables
// of their own): a store that lacked only these is not indexed again
// (at a million results that would read and rewrite every document).
func derivesNothing(version int) bool { return version == 6 || version == 7 || version == 8 }

// Prefixes of a migration statement that only PostgreSQL runs: pgOnly's
// must succeed; pgOptional's runs in a savepoint and may fail (pg_trgm
// is a contrib extension a server may lack, or the role may not be
// allowed to create it): it only makes queries faster, never changes
// their results.
const (
	pgOnly     = "postgres: "
	pgOptional = "postgres-optional: "
	// sqliteOnly marks a statement only SQLite runs.
	sqliteOnly = "sqlite: "
)

// SchemaVersion returns the schema version this boardbench writes: the
// number of migrations it knows.
func SchemaVersion() int { return len(migrations) }

// migrationsTable records the applied migrations, one row each.
const migrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version INTEGER PRIMARY KEY,
	applied_at TEXT NOT NULL,
	boardbench TEXT NOT NULL
)`
