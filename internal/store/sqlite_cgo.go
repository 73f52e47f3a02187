//go:build board && cgo

package store

import (
	_ "github.com/mattn/go-sqlite3" // the "sqlite3" database/sql driver (SQLite's C source, through cgo)
)

// sqliteDriver is the database/sql driver of SQLite stores. A board build
// with cgo (scripts/build-all.sh makes them static, with cgo, anyway)
// compiles SQLite's own C source in through mattn/go-sqlite3, about 2.8 MB
// less than modernc.org/sqlite's translation to Go (docs/architecture.md,
// "Board builds"); the store's tests run with both drivers.
const sqliteDriver = "sqlite3"

// sqliteDSN is mattn/go-sqlite3's connection string for the store at abs.
func sqliteDSN(abs string, o sqliteOpts) string {
	p := []string{"_busy_timeout=" + busyMillis()}
	if o.immediate {
		p = append(p, "_txlock=immediate")
	}
	if o.wal {
		p = append(p, "_journal_mode=WAL", "_synchronous=NORMAL")
	}
	if o.queryOnly {
		p = append(p, "_query_only=1")
	}
	return sqliteURI(abs, o, p)
}
