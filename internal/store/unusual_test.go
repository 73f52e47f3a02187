package store

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"boardbench/internal/testutil/need"
)

// storeIn makes a store with one result in a new directory and returns
// its path; the store is closed cleanly (no -wal or -shm left).
func storeIn(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "src", "results.db")
	st, err := Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := st.Put(context.Background(), mustJSON(t, testResult("aaaa0001", "Radxa ROCK 5B", "RK3588", "6.1.0", 16000, t0))); err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	assertOnlyStore(t, filepath.Dir(path))
	return path
}

// assertOnlyStore checks that dir holds the store file and nothing else
// (no -wal, no -shm).
func assertOnlyStore(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"results.db"}) {
		t.Errorf("%s holds %q, want only results.db", dir, names)
	}
}

// readBack opens path read-only, lists and reads its one result, and
// closes it.
func readBack(t *testing.T, path string) {
	t.Helper()
	ctx := context.Background()
	st, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatalf("OpenReadOnly: %v", err)
	}
	if recs, total, err := st.List(ctx, Query{}); err != nil || total != 1 || recs[0].ID != "aaaa0001" {
		t.Errorf("List: %v, %d results", err, total)
	}
	if _, err := st.Get(ctx, "aaaa0001"); err != nil {
		t.Errorf("Get: %v", err)
	}
	if _, _, err := st.Put(ctx, mustJSON(t, testResult("bbbb0002", "X", "Y", "6.1", 1, t0))); err == nil {
		t.Error("Put through a read-only store succeeded")
	}
	if err := st.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// readOnlyView returns a read-only view of dir: as root a read-only bind
// mount (root ignores permissions), else dir itself with its write
// permission removed.
func readOnlyView(t *testing.T, dir string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		if err := os.Chmod(filepath.Join(dir, "results.db"), 0o444); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(dir, 0o555); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Chmod(dir, 0o755) })
		return dir
	}
	view := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(view, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "--bind", dir, view).CombinedOutput(); err != nil {
		need.Missing(t, "a read-only bind mount needs mount(8) with privileges: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", view).Run() })
	if out, err := exec.Command("mount", "-o", "remount,bind,ro", view).CombinedOutput(); err != nil {
		need.Missing(t, "remounting read-only: %v: %s", err, out)
	}
	if err := os.WriteFile(filepath.Join(view, "probe"), nil, 0o644); err == nil {
		t.Fatal("the read-only mount can be written")
	}
	return view
}

// TestReadOnlyMount: a store on a read-only file system (or in a
// directory this user cannot write) is read, and nothing is created
// beside it. Before, the open failed: "unable to open database file".
func TestReadOnlyMount(t *testing.T) {
	path := storeIn(t)
	view := readOnlyView(t, filepath.Dir(path))
	readBack(t, filepath.Join(view, "results.db"))
	assertOnlyStore(t, filepath.Dir(path))
}

// TestStoreOfAnotherUser: a store whose file and directory belong to
// another user (nobody, 65534) is read, and its reader leaves no -wal or
// -shm behind (as root it could create them).
func TestStoreOfAnotherUser(t *testing.T) {
	path := storeIn(t)
	dir := filepath.Dir(path)
	if os.Geteuid() != 0 {
		need.Missing(t, "giving the store to another user needs root (chown)")
	}
	for _, p := range []string{path, dir} {
		if err := os.Chown(p, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	readBack(t, path)
	assertOnlyStore(t, dir)
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if uid := fileUID(fi); uid != 65534 {
		t.Errorf("the store now belongs to uid %d", uid)
	}
}

// TestReadOnlyLeavesNothingBehind: a reader of a writable store (serve,
// report) removes the -wal and -shm files it made, and leaves those of a
// writer that still has the store open.
func TestReadOnlyLeavesNothingBehind(t *testing.T) {
	path := storeIn(t)
	readBack(t, path)
	assertOnlyStore(t, filepath.Dir(path))

	ctx := context.Background()
	writer, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer writer.Close()
	if _, _, err := writer.Put(ctx, mustJSON(t, testResult("cccc0003", "Y", "Z", "6.6", 2, t0))); err != nil {
		t.Fatal(err)
	}
	st, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, total, err := st.List(ctx, Query{}); err != nil || total != 2 {
		t.Errorf("the reader does not see the writer's result: %v, %d results", err, total)
	}
	st.Close()
	if _, err := os.Stat(path + "-wal"); err != nil {
		t.Errorf("the reader removed the -wal of a writer that has the store open: %v", err)
	}
	if _, total, err := writer.List(ctx, Query{}); err != nil || total != 2 {
		t.Errorf("the writer after the reader closed: %v, %d results", err, total)
	}
}
