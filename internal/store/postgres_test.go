package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"

	"boardbench/internal/testutil/need"
)

// PostgresEnv names a PostgreSQL server for the integration tests
// (scripts/pg-throwaway.sh starts one; .ci/run sets it).
const PostgresEnv = "BOARDBENCH_TEST_POSTGRES"

// pgDatabase creates a fresh database on the test server and returns its
// URL; it is dropped at the end of the test.
func pgDatabase(t *testing.T) string {
	t.Helper()
	base := os.Getenv(PostgresEnv)
	if base == "" {
		need.Missing(t, "PostgreSQL: set %s to a server URL (scripts/pg-throwaway.sh starts one)", PostgresEnv)
		return ""
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	name := "bbtest_" + strings.ToLower(strings.NewReplacer("/", "_", "-", "_").Replace(t.Name()))
	ctx := context.Background()
	admin.ExecContext(ctx, `DROP DATABASE IF EXISTS `+name)
	if _, err := admin.ExecContext(ctx, `CREATE DATABASE `+name); err != nil {
		t.Fatalf("creating a test database on %s: %v", redactURL(base), err)
	}
	t.Cleanup(func() { admin.ExecContext(context.Background(), `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`) })
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/" + name
	return u.String()
}

func openPG(t *testing.T, spec string) Store {
	t.Helper()
	st, err := Open(context.Background(), spec)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func TestPostgresRoundTrip(t *testing.T) {
	spec := pgDatabase(t)
	if spec == "" {
		return
	}
	testRoundTrip(t, openPG(t, spec))
}

func TestPostgresList(t *testing.T) {
	spec := pgDatabase(t)
	if spec == "" {
		return
	}
	testListFiltersAndSorts(t, openPG(t, spec))
}

// TestPostgresConcurrentPushes: several processes write to one server at
// once, the first ones racing to create the schema; nothing is lost.
func TestPostgresConcurrentPushes(t *testing.T) {
	spec := pgDatabase(t)
	if spec == "" {
		return
	}
	const procs = 4
	runWriters(t, spec, procs)
	st := openPG(t, spec)
	if _, total, err := st.List(context.Background(), Query{}); err != nil || total != procs*40 {
		t.Errorf("stored %d results (%v), want %d", total, err, procs*40)
	}
	// Pushing again from every process adds nothing.
	runWriters(t, spec, procs)
	if _, total, _ := st.List(context.Background(), Query{}); total != procs*40 {
		t.Errorf("after pushing again: %d results, want %d", total, procs*40)
	}
}

func TestPostgresNewerSchemaRefused(t *testing.T) {
	spec := pgDatabase(t)
	if spec == "" {
		return
	}
	st := openPG(t, spec)
	st.Close()
	db, err := sql.Open("pgx", spec)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(fmt.Sprintf(`INSERT INTO schema_migrations VALUES (%d, 'x', 'future')`, SchemaVersion()+1)); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(context.Background(), spec); !errors.Is(err, ErrNewerSchema) {
		t.Errorf("Open of a newer store: %v, want ErrNewerSchema", err)
	}
}

// TestPostgresMigrationFromV3: the schema-3 store of the SQLite migration
// test, loaded into PostgreSQL, migrates the same way.
func TestPostgresMigrationFromV3(t *testing.T) {
	spec := pgDatabase(t)
	sqlText, err := os.ReadFile("testdata/schema-v3.sql")
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("pgx", spec)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), string(sqlText)); err != nil {
		t.Fatalf("loading the schema-3 store: %v", err)
	}
	testMigratedV3(t, openPG(t, spec))
}
