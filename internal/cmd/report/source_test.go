package report

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/result"
	"boardbench/internal/store"
	"boardbench/internal/testutil/cmdtest"
)

// runWithStore executes the command with --store dbPath.
func runWithStore(t *testing.T, dbPath string, args ...string) (string, string, int) {
	t.Helper()
	return cmdtest.Run(t, NewCmd, cmdtest.Store(dbPath), args...)
}

// TestStoreIDs checks that every form of report takes a store id or the
// start of one, that a file of that name wins, and that an unknown or
// ambiguous id is bad input saying which.
func TestStoreIDs(t *testing.T) {
	file := savedResult(t)
	r, err := result.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "r.db")
	st, err := store.Open(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"42d29a4200000000000000000000000a", "9c1e07b300000000000000000000000b", "9c1e07b400000000000000000000000c"} {
		r.ID = id
		doc, _ := json.Marshal(r)
		if _, _, err := st.Put(context.Background(), doc); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.Tag(context.Background(), "42d29a4200000000000000000000000a", "new-kernel"); err != nil {
		t.Fatal(err)
	}
	st.Close()
	fromFile, _, _ := run(t, "--markdown-row", file)
	charts := filepath.Join(dir, "charts")
	for _, tc := range []struct {
		name string
		args []string
		want string
		code int
	}{
		{"markdown row by prefix", []string{"--markdown-row", "42d29a42"}, strings.TrimSpace(fromFile), 0},
		{"markdown rows by full id and prefix", []string{"--markdown-row", "42d29a4200000000000000000000000a", "9c1e07b3"}, "| Raspberry Pi 5", 0},
		{"text report", []string{"42d29a42"}, "Raspberry Pi 5 Model B", 0},
		{"html", []string{"--html", "42d2"}, "<!DOCTYPE html>", 0},
		{"html shows the stored tags", []string{"--html", "42d2"}, `<p id="tags">tags: new-kernel</p>`, 0},
		{"charts", []string{"--charts", charts, "42d29a42"}, "Raspberry Pi 5 Model B", 0},
		{"json", []string{"--json", "42D29A42"}, `"42d29a4200000000000000000000000a"`, 0},
		{"unknown id", []string{"--markdown-row", "deadbeef"}, "deadbeef: no such file, nor a result id in the store", 2},
		{"ambiguous id", []string{"--html", "9c1e07b"}, `"9c1e07b" is the start of 2 result ids`, 2},
		{"not an id: only a file", []string{"nope.json"}, "nope.json: no such file", 2},
	} {
		out, errOut, code := runWithStore(t, dbPath, tc.args...)
		got := out
		if code != 0 {
			got = errOut
		}
		if code != tc.code || !strings.Contains(got, tc.want) {
			t.Errorf("%s: exit %d, output %q; want exit %d and %q", tc.name, code, got, tc.code, tc.want)
		}
	}
	// A file named like an id wins over the store.
	t.Chdir(dir)
	data, _ := os.ReadFile(file)
	os.WriteFile("9c1e07b", data, 0o644)
	if out, errOut, code := runWithStore(t, dbPath, "--markdown-row", "9c1e07b"); code != 0 || strings.TrimSpace(out) != strings.TrimSpace(fromFile) {
		t.Errorf("a file named like an id: exit %d %q %q", code, out, errOut)
	}
	// No store there: the id is bad input, and no store is created.
	missing := filepath.Join(dir, "none.db")
	if _, errOut, code := runWithStore(t, missing, "42d29a42"); code != 2 || !strings.Contains(errOut, "no such file, nor a results store") {
		t.Errorf("id without a store: exit %d %q", code, errOut)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("report created a store")
	}
}
