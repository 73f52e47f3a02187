//go:build !board || !cgo

package store

import (
	_ "modernc.org/sqlite" // the "sqlite" database/sql driver (pure Go)
)

// sqliteDriver is the database/sql driver of SQLite stores: in the full
// build (and a board build without cgo) modernc.org/sqlite, SQLite
// translated to Go; a board build with cgo uses SQLite's C source
// instead (sqlite_cgo.go; docs/architecture.md, "Board builds").
const sqliteDriver = "sqlite"

// sqliteDSN is modernc.org/sqlite's connection string for the store at abs.
func sqliteDSN(abs string, o sqliteOpts) string {
	p := []string{"_pragma=busy_timeout(" + busyMillis() + ")"}
	if o.immediate {
		p = append(p, "_txlock=immediate")
	}
	if o.wal {
		p = append(p, "_pragma=journal_mode(WAL)", "_pragma=synchronous(NORMAL)")
	}
	if o.queryOnly {
		p = append(p, "_pragma=query_only(1)")
	}
	return sqliteURI(abs, o, p)
}
