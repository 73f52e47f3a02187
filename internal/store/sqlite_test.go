package store

import (
	"bytes"
	"database/sql"
	"encoding/json"

	"boardbench/internal/result"
)

func jsonCompact(w *bytes.Buffer, doc []byte) error { return json.Compact(w, doc) }

func jsonMarshal(r *result.Result) ([]byte, error) { return json.Marshal(r) }

// execSQLite runs SQL statements on the SQLite file path directly.
func execSQLite(path, statements string) error {
	db, err := sql.Open(sqliteDriver, "file:"+path)
	if err != nil {
		return err
	}
	defer db.Close()
	_, err = db.Exec(statements)
	return err
}

// versionOf reads a SQLite store's schema version directly.
func versionOf(path string) (int, error) {
	db, err := sql.Open(sqliteDriver, "file:"+path)
	if err != nil {
		return 0, err
	}
	defer db.Close()
	var v int
	err = db.QueryRow(`SELECT MAX(version) FROM schema_migrations`).Scan(&v)
	return v, err
}
