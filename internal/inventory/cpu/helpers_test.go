package cpu

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/host"
)

// sharedData returns ../shared/data relative to the module root, skipping
// the test when the reference data is absent.
func sharedData(t testing.TB, sub string) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "..", "shared", "data", sub)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("reference data %s absent (%v): skipping", dir, err)
	}
	return dir
}

// linkPrefix marks a writeTree value as a symbolic link target.
const linkPrefix = "@link:"

// writeTree creates files (machine path → content) under a new root; a
// content of "@link:TARGET" makes a symbolic link instead.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, content := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(content, linkPrefix); ok {
			if err := os.Symlink(target, full); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// collectRoot runs Collect on a fixture root.
func collectRoot(t testing.TB, root string) Info {
	t.Helper()
	h, err := host.New(root)
	if err != nil {
		t.Fatal(err)
	}
	return Collect(h)
}

// collectCPUInfo runs Collect on a root holding only proc/cpuinfo.
func collectCPUInfo(t testing.TB, content []byte) Info {
	t.Helper()
	return collectRoot(t, writeTree(t, map[string]string{"/proc/cpuinfo": string(content)}))
}

// hostFor opens a Host on a fixture root.
func hostFor(t testing.TB, root string) *host.Host {
	t.Helper()
	h, err := host.New(root)
	if err != nil {
		t.Fatal(err)
	}
	return h
}
