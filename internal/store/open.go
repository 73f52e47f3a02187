package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"boardbench/internal/redact"
)

// EnvVar names the environment variable that chooses the store when
// --store is not given.
const EnvVar = "BOARDBENCH_STORE"

// BusyTimeout is how long a SQLite writer waits for another one.
const BusyTimeout = 30 * time.Second

// DefaultPath returns the default SQLite store:
// $XDG_DATA_HOME/boardbench/results.db, or
// ~/.local/share/boardbench/results.db when XDG_DATA_HOME is unset or not
// absolute.
func DefaultPath() (string, error) {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" && filepath.IsAbs(d) {
		return filepath.Join(d, "boardbench", "results.db"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", fmt.Errorf("no home directory for the results store (set %s or use --store): %v", EnvVar, err)
	}
	return filepath.Join(home, ".local", "share", "boardbench", "results.db"), nil
}

// Resolve returns the store a command uses: spec (from --store) when set,
// else $BOARDBENCH_STORE, else DefaultPath.
func Resolve(spec string) (string, error) {
	if spec != "" {
		return spec, nil
	}
	if env := os.Getenv(EnvVar); env != "" {
		return env, nil
	}
	return DefaultPath()
}

// IsPostgres reports whether spec is a PostgreSQL URL
// (postgres:// or postgresql://).
func IsPostgres(spec string) bool {
	return strings.HasPrefix(spec, "postgres://") || strings.HasPrefix(spec, "postgresql://")
}

// Open opens the store spec names (resolved by Resolve: "" means
// $BOARDBENCH_STORE, else the default file): a postgres:// URL, else the
// path of a SQLite file, created with its directory when missing. The
// schema is migrated to this boardbench's version; a store of a newer
// version is refused unchanged (ErrNewerSchema).
func Open(ctx context.Context, spec string) (Store, error) {
	st, err := open(ctx, spec)
	return st, redactErr(err, spec)
}

// OpenReadOnly opens the store spec names (resolved as by Open) for
// reading only, for the commands that must never write (serve, report):
// see openReadOnly. Its errors are redacted as Open's.
func OpenReadOnly(ctx context.Context, spec string) (Store, error) {
	st, err := openReadOnly(ctx, spec)
	return st, redactErr(err, spec)
}

// redactErr removes the credentials of the store spec names (given, or
// from BOARDBENCH_STORE) from err's message: pgx and net/url may echo a
// connection string in theirs.
func redactErr(err error, spec string) error {
	if err == nil {
		return nil
	}
	if resolved, rerr := Resolve(spec); rerr == nil {
		spec = resolved
	}
	return redact.ConnError(err, spec)
}

func open(ctx context.Context, spec string) (Store, error) {
	url, path, err := locate(spec)
	switch {
	case err != nil:
		return nil, err
	case url != "":
		return openPostgres(ctx, url)
	}
	return openSQLite(ctx, path)
}

// OpenExisting opens the store spec names as Open does, for the commands
// that read or change stored results (results, compare), but never
// creates one: a SQLite file that does not exist is ErrNoSuchStore
// (wrapped), and nothing is written.
func OpenExisting(ctx context.Context, spec string) (Store, error) {
	_, path, err := locate(spec)
	if err != nil {
		return nil, err
	}
	if path != "" {
		if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
			return nil, redactErr(fmt.Errorf("store %s: %w", path, ErrNoSuchStore), spec)
		}
	}
	return Open(ctx, spec)
}

// locate resolves spec (as Resolve does) and says where the store is:
// the postgres:// URL of a PostgreSQL store, else the path of a SQLite
// file. Any other URL is refused.
func locate(spec string) (url, path string, err error) {
	spec, err = Resolve(spec)
	if err != nil {
		return "", "", err
	}
	if IsPostgres(spec) {
		if noPostgres != nil {
			return "", "", noPostgres
		}
		return spec, "", nil
	}
	if strings.Contains(spec, "://") {
		return "", "", fmt.Errorf("store %q: not a postgres:// URL nor a file path", redactURL(spec))
	}
	if isKeywordValue(spec) {
		// Taken as a path, it would become a SQLite file named after the
		// connection string, password and all.
		return "", "", fmt.Errorf("store %q: a PostgreSQL keyword/value string is not taken as a store; give a postgres:// URL (the password in ~/.pgpass or PGPASSWORD, see docs/store.md)", redactURL(spec))
	}
	return "", strings.TrimPrefix(spec, "sqlite:"), nil
}

// connKeywords are libpq connection keywords that name a server or a
// credential; a store spec made of KEY=VALUE words with one of them is a
// keyword/value connection string, not a file name.
var connKeywords = []string{"host", "hostaddr", "port", "dbname", "user", "password", "passfile", "sslmode", "sslpassword", "service"}

// isKeywordValue reports whether spec reads as a libpq keyword/value
// connection string ("host=db user=bench password=…"): its first word is
// KEY=VALUE with KEY a connection keyword.
func isKeywordValue(spec string) bool {
	first, _, _ := strings.Cut(strings.TrimSpace(spec), " ")
	key, _, ok := strings.Cut(first, "=")
	if !ok || strings.ContainsAny(key, "/\\") {
		return false
	}
	for _, k := range connKeywords {
		if strings.EqualFold(strings.TrimSpace(key), k) {
			return true
		}
	}
	return false
}

// openSQLite opens (creating) a SQLite store in WAL mode with a busy
// timeout; write transactions are IMMEDIATE.
func openSQLite(ctx context.Context, path string) (Store, error) {
	if strings.ContainsAny(path, "?#") {
		return nil, fmt.Errorf("store %s: a store path must not contain '?' or '#'", path)
	}
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("store %s: not a regular file", path)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("store %s: %v", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("store %s: %v", path, err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("store %s: %v", path, err)
	}
	db, err := sql.Open(sqliteDriver, sqliteDSN(abs, sqliteOpts{immediate: true, wal: true}))
	if err != nil {
		return nil, fmt.Errorf("store %s: %v", path, err)
	}
	s := &sqlStore{db: db, d: dialect{name: "sqlite"}, where: redactURL(path)}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, sqliteError(path, err)
	}
	return s, nil
}

// sqliteError turns SQLite's "file is not a database" into one line a
// user understands.
func sqliteError(path string, err error) error {
	if strings.Contains(err.Error(), "not a database") {
		return fmt.Errorf("store %s: not a boardbench store (not a SQLite database)", path)
	}
	return err
}

// openPostgres opens a PostgreSQL store through pgx.
func openPostgres(ctx context.Context, url string) (Store, error) {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return nil, fmt.Errorf("store %s: %v", redactURL(url), err)
	}
	db.SetMaxOpenConns(4)
	s := &sqlStore{db: db, d: dialect{name: "postgres", postgres: true}, where: redactURL(url)}
	pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := db.PingContext(pctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("store %s: %v", s.where, err)
	}
	if err := s.migrate(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// redactURL hides every credential of a store's URL or connection string
// (redact.ConnString).
func redactURL(s string) string { return redact.ConnString(s) }

// Where returns where st is (a path, or a URL without password), "" for
// a store that does not say.
func Where(st Store) string {
	if w, ok := st.(interface{ Where() string }); ok {
		return w.Where()
	}
	return ""
}
