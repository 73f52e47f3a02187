package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// MaxReadConns is how many connections a read-only store opens at most:
// a server answering hundreds of requests at once shares them (each
// SQLite connection holds descriptors on the file, its -wal and -shm).
const MaxReadConns = 4

// ErrNoSuchStore is returned (wrapped) by OpenReadOnly for a SQLite store
// file that does not exist: a reader never creates one.
const ErrNoSuchStore = sentinel("no results store there")

// openReadOnly opens the store spec names (resolved as by Open) for
// reading only, for the commands that must never write (serve, report).
// A SQLite file must exist; it is opened with SQLite's mode=ro and
// query_only, so no statement through the returned Store can change it.
// The one exception is a store of an older schema version, which is
// migrated first (through Open, as any command would) and then reopened
// read-only. A PostgreSQL store is migrated the same way if needed, then
// used through sessions whose transactions are read-only
// (default_transaction_read_only). (Its errors are redacted by
// OpenReadOnly, open.go.)
func openReadOnly(ctx context.Context, spec string) (Store, error) {
	url, path, err := locate(spec)
	switch {
	case err != nil:
		return nil, err
	case url != "":
		return openPostgresReadOnly(ctx, url)
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("store %s: %w", path, ErrNoSuchStore)
	case err != nil:
		return nil, fmt.Errorf("store %s: %v", path, err)
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("store %s: not a regular file", path)
	}
	s, version, err := openSQLiteReadOnly(ctx, path)
	if err != nil {
		return nil, err
	}
	switch {
	case version == SchemaVersion():
		return s, nil
	case version > SchemaVersion():
		s.Close()
		return nil, fmt.Errorf("store %s has schema version %d; this boardbench knows versions up to %d: %w (upgrade boardbench; the store was not changed)",
			path, version, SchemaVersion(), ErrNewerSchema)
	}
	s.Close()
	if !canWrite(path) {
		return nil, fmt.Errorf("store %s has schema version %d and this boardbench reads version %d: it must be migrated once by a boardbench that can write it (this one cannot: read-only file system or permissions)",
			path, version, SchemaVersion())
	}
	rw, err := openSQLite(ctx, path) // migrates
	if err != nil {
		return nil, err
	}
	if err := rw.Close(); err != nil {
		return nil, fmt.Errorf("store %s: %v", path, err)
	}
	s, _, err = openSQLiteReadOnly(ctx, path)
	return s, err
}

// openSQLiteReadOnly opens the SQLite file at path read-only and returns
// its schema version.
//
// A store in WAL mode needs its -shm file to be read alongside writers.
// Where this process can write the file and its directory, the store is
// opened with mode=ro (SQLite creates -wal and -shm if they are missing,
// so that a result saved meanwhile is seen), and when it had none, Close
// removes them again through SQLite itself: a last, writable connection
// opened and closed, which checkpoints and deletes them unless another
// process still has the store open. Where it cannot write (a read-only
// mount, a store of another user), nothing can be created: the store is
// read as an unchanging file (immutable=1), unless its -wal and -shm are
// there, which SQLite then reads.
func openSQLiteReadOnly(ctx context.Context, path string) (*sqlStore, int, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, 0, fmt.Errorf("store %s: %v", path, err)
	}
	hadWAL, hadSHM := exists(abs+"-wal"), exists(abs+"-shm")
	writable := canWrite(abs)
	// A "file:" URI, so that SQLite itself applies mode=ro.
	dsn := sqliteDSN(abs, sqliteOpts{mode: "ro", queryOnly: true, immutable: !writable && !(hadWAL && hadSHM)})
	db, err := sql.Open(sqliteDriver, dsn)
	if err != nil {
		return nil, 0, fmt.Errorf("store %s: %v", path, err)
	}
	db.SetMaxOpenConns(MaxReadConns)
	db.SetMaxIdleConns(MaxReadConns)
	s := &sqlStore{db: db, d: dialect{name: "sqlite"}, where: redactURL(path)}
	if writable && !hadWAL && !hadSHM {
		s.closeFn = func() error { return tidyWAL(abs) }
	}
	version, err := s.schemaVersion(ctx)
	if err != nil {
		s.Close()
		return nil, 0, sqliteError(path, err)
	}
	return s, version, nil
}

// canWrite reports whether this process can write the file at path and
// create files beside it (access(2): a read-only mount says no even to
// root).
func canWrite(path string) bool {
	return unix.Access(filepath.Dir(path), unix.W_OK) == nil && unix.Access(path, unix.W_OK) == nil
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// tidyWAL removes the -wal and -shm files a read-only connection left
// beside the store at abs, the way SQLite does: the last connection to
// close checkpoints the WAL and deletes both. A connection that may write
// is opened, reads one row and is closed; when another process has the
// store open, SQLite leaves the files to it. No statement writes.
func tidyWAL(abs string) error {
	db, err := sql.Open(sqliteDriver, sqliteDSN(abs, sqliteOpts{mode: "rw"}))
	if err != nil {
		return nil
	}
	var n int
	_ = db.QueryRow(`SELECT COUNT(*) FROM schema_migrations`).Scan(&n)
	return db.Close()
}

// schemaVersion reads the store's schema version without changing
// anything: an error for a database that is not a boardbench store.
func (s *sqlStore) schemaVersion(ctx context.Context) (int, error) {
	var version sql.NullInt64
	if err := s.db.QueryRowContext(ctx, `SELECT MAX(version) FROM schema_migrations`).Scan(&version); err != nil {
		if strings.Contains(err.Error(), "no such table") || strings.Contains(err.Error(), "does not exist") {
			return 0, fmt.Errorf("store %s: not a boardbench store (no schema_migrations table)", s.where)
		}
		return 0, fmt.Errorf("store %s: %w", s.where, err)
	}
	return int(version.Int64), nil
}

// openPostgresReadOnly migrates the PostgreSQL store at u if it needs it
// (through the ordinary open), then opens it again with read-only
// transactions by default.
func openPostgresReadOnly(ctx context.Context, u string) (Store, error) {
	rw, err := openPostgres(ctx, u)
	if err != nil {
		return nil, err
	}
	rw.Close()
	pu, err := url.Parse(u)
	if err != nil {
		return nil, fmt.Errorf("store %s: %v", redactURL(u), err)
	}
	q := pu.Query()
	q.Set("default_transaction_read_only", "on")
	if !q.Has("plan_cache_mode") {
		// Plans for the values given: a filter's LIKE pattern decides
		// between walking an order's index and a trigram index, which a
		// generic plan of a cached statement cannot know.
		q.Set("plan_cache_mode", "force_custom_plan")
	}
	pu.RawQuery = q.Encode()
	db, err := sql.Open("pgx", pu.String())
	if err != nil {
		return nil, fmt.Errorf("store %s: %v", redactURL(u), err)
	}
	db.SetMaxOpenConns(MaxReadConns)
	s := &sqlStore{db: db, d: dialect{name: "postgres", postgres: true}, where: redactURL(u)}
	if _, err := s.schemaVersion(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}
