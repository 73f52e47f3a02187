package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// TestOpenReadOnlySQLite checks that a reader never creates a store, can
// read one, and cannot change it through any method.
func TestOpenReadOnlySQLite(t *testing.T) {
	ctx := context.Background()
	missing := filepath.Join(t.TempDir(), "nonexist.db")
	if _, err := OpenReadOnly(ctx, missing); !errors.Is(err, ErrNoSuchStore) {
		t.Errorf("OpenReadOnly(missing) = %v, want ErrNoSuchStore", err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("OpenReadOnly created %s", missing)
	}
	plain := filepath.Join(t.TempDir(), "r.db")
	rw, err := openSQLite(ctx, plain)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := rw.Put(ctx, mustJSON(t, testResult("aaaa0001", "Radxa ROCK 5B", "RK3588", "6.1.0", 16000, t0))); err != nil {
		t.Fatal(err)
	}
	rw.Close()
	// '%' in a directory's name stays part of the path.
	dir := filepath.Join(t.TempDir(), "a%20b")
	if err := os.Rename(filepath.Dir(plain), dir); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "r.db")

	st, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if recs, total, err := st.List(ctx, Query{}); err != nil || total != 1 || recs[0].ID != "aaaa0001" {
		t.Fatalf("List on the read-only store: %v, %d records", err, total)
	}
	writes := map[string]func() error{
		"Put": func() error {
			_, _, err := st.Put(ctx, mustJSON(t, testResult("bbbb0002", "X", "Y", "6.1", 1, t0)))
			return err
		},
		"Tag":    func() error { return st.Tag(ctx, "aaaa0001", "x") },
		"Remove": func() error { return st.Remove(ctx, "aaaa0001") },
	}
	for name, write := range writes {
		if err := write(); err == nil {
			t.Errorf("%s through a read-only store succeeded", name)
		}
	}
	if _, total, _ := st.List(ctx, Query{}); total != 1 {
		t.Errorf("after refused writes: %d results, want 1", total)
	}
	if _, err := OpenReadOnly(ctx, dir); err == nil {
		t.Error("OpenReadOnly of a directory succeeded")
	}
	junk := filepath.Join(dir, "junk.db")
	os.WriteFile(junk, []byte("not a database at all, just text, long enough to not be empty"), 0o644)
	if _, err := OpenReadOnly(ctx, junk); err == nil {
		t.Error("OpenReadOnly of a text file succeeded")
	}
}

func TestOpenReadOnlyPostgres(t *testing.T) {
	u := pgDatabase(t)
	if u == "" {
		return
	}
	ctx := context.Background()
	st, err := OpenReadOnly(ctx, u) // an empty database: migrated, then read-only
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, _, err := st.Put(ctx, mustJSON(t, testResult("aaaa0001", "X", "Y", "6.1", 1, t0))); err == nil {
		t.Error("Put through a read-only PostgreSQL store succeeded")
	}
	if _, _, err := st.List(ctx, Query{}); err != nil {
		t.Errorf("List: %v", err)
	}
}

// TestOpenPathWithPercent opens (and creates) a store in a directory whose
// name holds a '%', which a "file:" URI would otherwise decode.
func TestOpenPathWithPercent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "100%25 done", "results.db")
	st, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if _, err := os.Stat(path); err != nil {
		t.Errorf("the store is not at %s: %v", path, err)
	}
}

// TestReadOnlyConnectionsBounded: hundreds of readers at once (a server
// under load) share at most MaxReadConns connections, so the store's
// descriptors stay bounded.
func TestReadOnlyConnectionsBounded(t *testing.T) {
	ctx := context.Background()
	_, path := openTemp(t)
	rw, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := rw.Put(ctx, mustJSON(t, testResult("aaaa0001", "Radxa ROCK 5B", "RK3588", "6.1.0", 16000, t0))); err != nil {
		t.Fatal(err)
	}
	rw.Close()
	st, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	db := st.(*sqlStore).db
	if got := db.Stats().MaxOpenConnections; got != MaxReadConns {
		t.Fatalf("read-only store: at most %d connections, want %d", got, MaxReadConns)
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	peak := 0
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		for {
			select {
			case <-stop:
				return
			default:
				peak = max(peak, db.Stats().OpenConnections)
				runtime.Gosched()
			}
		}
	}()
	errs := make(chan error, 200)
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := st.Get(ctx, "aaaa0001"); err != nil {
				errs <- err
			}
			if _, _, err := st.List(ctx, Query{Sort: "7zip-multi", Limit: 10}); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-sampled
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if peak > MaxReadConns {
		t.Errorf("%d connections open at once, want at most %d", peak, MaxReadConns)
	}
}
