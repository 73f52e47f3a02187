package cmdstore

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/result"
)

// TestKeeper: --no-store gives no Keeper; otherwise the Keeper saves to
// the store --store names (creating it), and only when called.
func TestKeeper(t *testing.T) {
	db := filepath.Join(t.TempDir(), "r.db")
	if k := Keeper(cmdutil.StoreOptions{Spec: db, Off: true}); k != nil {
		t.Error("--no-store gave a Keeper")
	}
	k := Keeper(cmdutil.StoreOptions{Spec: db})
	if k == nil {
		t.Fatal("no Keeper for --store")
	}
	if _, err := os.Stat(db); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("making the Keeper touched %s", db)
	}
	r := result.New("run", nil, nil)
	r.Status, r.StartedAt = result.StatusComplete, time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	doc, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	id, err := k(context.Background(), doc)
	if err != nil || id != r.ID {
		t.Fatalf("Keeper = %q, %v; want %q", id, err, r.ID)
	}
	st, err := Read(context.Background(), cmdutil.StoreOptions{Spec: db})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Get(context.Background(), id); err != nil {
		t.Errorf("the kept result is not in the store: %v", err)
	}
}

// TestOpenRefusals: a missing store and --no-store are one line and exit
// status 2 for the commands that read or change stored results, and
// neither creates a store.
func TestOpenRefusals(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.db")
	for name, open := range map[string]func(context.Context, cmdutil.StoreOptions) error{
		"Open": func(ctx context.Context, o cmdutil.StoreOptions) error { _, err := Open(ctx, o); return err },
		"Read": func(ctx context.Context, o cmdutil.StoreOptions) error { _, err := Read(ctx, o); return err },
	} {
		err := open(context.Background(), cmdutil.StoreOptions{Spec: missing})
		if cmdutil.ExitCode(err) != 2 || !strings.Contains(err.Error(), "nothing has been saved to it yet") {
			t.Errorf("%s(missing) = %v, want exit 2", name, err)
		}
		if err := open(context.Background(), cmdutil.StoreOptions{Spec: missing, Off: true}); cmdutil.ExitCode(err) != 2 || !errors.Is(err, ErrNoStore) {
			t.Errorf("%s under --no-store = %v", name, err)
		}
	}
	if _, err := Create(context.Background(), cmdutil.StoreOptions{Off: true}); !errors.Is(err, ErrNoStore) {
		t.Errorf("Create under --no-store = %v", err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a refusal created %s", missing)
	}
}

// TestKeeperSQLiteNotCutByDeadline: a save to a SQLite store that has to
// create it (every migration, in one transaction) completes even when the
// caller's deadline has passed: the deadline interrupted the migration on
// a slow machine, and then every later save too (the store was never
// created). Tested with both SQLite drivers (go test -tags board uses
// mattn/go-sqlite3).
func TestKeeperSQLiteNotCutByDeadline(t *testing.T) {
	db := filepath.Join(t.TempDir(), "new.db")
	r := result.New("mem", nil, nil)
	r.Status, r.StartedAt = result.StatusComplete, time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	doc, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithDeadline(context.Background(), time.Unix(1, 0))
	defer cancel()
	id, err := Keeper(cmdutil.StoreOptions{Spec: db})(ctx, doc)
	if err != nil || id != r.ID {
		t.Fatalf("Keeper past its deadline = %q, %v; want %q saved", id, err, r.ID)
	}
	st, err := Read(context.Background(), cmdutil.StoreOptions{Spec: db})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Get(context.Background(), id); err != nil {
		t.Errorf("the kept result is not in the store: %v", err)
	}
}
