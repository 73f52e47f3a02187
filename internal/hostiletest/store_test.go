package hostiletest_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"boardbench/internal/testutil/need"
	"boardbench/internal/testutil/shareddata"
)

// importedStore imports one real log into a new store and returns the
// store's path and the result's id.
func importedStore(t *testing.T) (path, id string) {
	t.Helper()
	log := shareddata.Dir(t, "sbc-bench-logs/4E5J.txt")
	path = filepath.Join(t.TempDir(), "store", "results.db")
	stdout, stderr, code := boardbench(t, "--store", path, "import", log)
	if code != 0 {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	return path, regexp.MustCompile(`[0-9a-f]{32}`).FindString(stdout)
}

func onlyStore(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if !slices.Equal(names, []string{"results.db"}) {
		t.Errorf("%s holds %q after reading, want only results.db", dir, names)
	}
}

// readCommands runs every command that only reads the store on it: each
// must succeed and print something (they open the store read-only).
func readCommands(t *testing.T, store, id string) {
	t.Helper()
	for _, args := range [][]string{
		{"results", "list"},
		{"results", "show", id},
		{"results", "export", id, "--format", "csv"},
		{"compare", id, id},
	} {
		stdout, stderr, code := boardbench(t, append([]string{"--store", store}, args...)...)
		if code != 0 || stdout == "" {
			t.Errorf("%v: exit %d, %d bytes on stdout: %s", args, code, len(stdout), stderr)
		}
	}
}

// TestStoreOnReadOnlyMountOrOfAnotherUser: report, report --html, results
// list/show/export and compare read a store on a read-only mount and one
// owned by another user, and leave nothing beside it.
func TestStoreOnReadOnlyMountOrOfAnotherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		need.Missing(t, "a read-only bind mount and chown need root")
	}
	t.Run("read-only mount", func(t *testing.T) {
		path, id := importedStore(t)
		view := filepath.Join(t.TempDir(), "ro")
		must(t, os.Mkdir(view, 0o755))
		if out, err := exec.Command("mount", "--bind", filepath.Dir(path), view).CombinedOutput(); err != nil {
			need.Missing(t, "mount --bind: %v: %s", err, out)
		}
		t.Cleanup(func() { exec.Command("umount", view).Run() })
		if out, err := exec.Command("mount", "-o", "remount,bind,ro", view).CombinedOutput(); err != nil {
			need.Missing(t, "remount ro: %v: %s", err, out)
		}
		ro := filepath.Join(view, "results.db")
		if _, stderr, code := boardbench(t, "--store", ro, "report", id); code != 0 {
			t.Errorf("report from a read-only mount: exit %d: %s", code, stderr)
		}
		if _, stderr, code := boardbench(t, "--store", ro, "report", "--html", id, "-o", filepath.Join(t.TempDir(), "r.html")); code != 0 {
			t.Errorf("report --html from a read-only mount: exit %d: %s", code, stderr)
		}
		readCommands(t, ro, id)
		onlyStore(t, filepath.Dir(path))
	})
	t.Run("another user's store", func(t *testing.T) {
		path, id := importedStore(t)
		must(t, os.Chown(path, 65534, 65534))
		must(t, os.Chown(filepath.Dir(path), 65534, 65534))
		if _, stderr, code := boardbench(t, "--store", path, "report", "--html", id, "-o", filepath.Join(t.TempDir(), "r.html")); code != 0 {
			t.Errorf("report --html of another user's store: exit %d: %s", code, stderr)
		}
		readCommands(t, path, id)
		onlyStore(t, filepath.Dir(path))
	})
}
