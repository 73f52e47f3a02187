package store

import (
	"net/url"
	"strconv"
	"strings"
)

// sqliteOpts are the ways boardbench opens a SQLite file; sqliteDSN (one
// per driver, sqlite_modernc.go and sqlite_cgo.go) spells them in the
// driver's connection string.
type sqliteOpts struct {
	mode      string // SQLite's URI mode: "ro", "rw" or "" (read, write, create)
	immutable bool   // SQLite's immutable=1: the file cannot change
	immediate bool   // write transactions are BEGIN IMMEDIATE
	wal       bool   // journal_mode WAL, synchronous NORMAL
	queryOnly bool   // PRAGMA query_only: no statement may write
}

// sqliteURI is the "file:" URI of the store at abs, with the path escaped
// so that '%', '?' and '#' in a directory name stay part of the name, the
// parameters SQLite itself reads (mode, immutable), then the driver's.
func sqliteURI(abs string, o sqliteOpts, driverParams []string) string {
	var p []string
	if o.mode != "" {
		p = append(p, "mode="+o.mode)
	}
	if o.immutable {
		p = append(p, "immutable=1")
	}
	p = append(p, driverParams...)
	return "file:" + (&url.URL{Path: abs}).EscapedPath() + "?" + strings.Join(p, "&")
}

// busyMillis is BusyTimeout in milliseconds, as the drivers take it.
func busyMillis() string { return strconv.FormatInt(BusyTimeout.Milliseconds(), 10) }
