package compare

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/inventory"
	"boardbench/internal/iostreams"
	"boardbench/internal/result"
	"boardbench/internal/store"
)

func doc(t *testing.T, id, kernel string, multi float64) []byte {
	in := &inventory.Info{}
	in.Board.Model = "Radxa ROCK 5B"
	in.OS.Kernel.Release = kernel
	r := result.New("run", in, nil)
	r.ID, r.Status, r.StartedAt = id, result.StatusComplete, time.Date(2025, 3, 1, 10, 0, 0, 0, time.UTC)
	r.Summary = result.BuildSummary(nil)
	r.Summary.SevenZipMultiMIPS = &multi
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestFileAgainstStoreID compares a file with a stored result named by the
// start of its id.
func TestFileAgainstStoreID(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.json")
	os.WriteFile(file, doc(t, "aaaa0000000000000000000000000001", "6.1.0", 16000), 0o644)
	dbPath := filepath.Join(dir, "r.db")
	st, err := store.Open(context.Background(), dbPath)
	if err != nil {
		t.Fatal(err)
	}
	st.Put(context.Background(), doc(t, "bbbb0000000000000000000000000002", "6.8.0", 14000))
	st.Put(context.Background(), doc(t, "bbbc0000000000000000000000000003", "6.8.0", 14100))
	st.Close()
	for _, tc := range []struct {
		args []string
		want []string
		code int
		// errWant is in the error's text.
		errWant string
	}{
		{[]string{file, "bbbb"}, []string{"Conditions that differ", "kernel", "6.8.0", "(-12.5%)"}, 0, ""},
		{[]string{file, "bbbb", "--markdown"}, []string{"| **kernel** | 6.1.0 | 6.8.0 |"}, 0, ""},
		{[]string{file, "bbbb", "--json"}, []string{`"differs": true`, `"change_pct"`}, 0, ""},
		{[]string{file, "cccc"}, nil, 2, "no such file, nor a result id"},
		{[]string{file, "bbb"}, nil, 2, `"bbb" is the start of 2 result ids`},
		{[]string{file}, nil, 2, ""},
	} {
		ios, out, _ := iostreams.Test()
		f := &cmdutil.Factory{IO: ios, Store: cmdutil.StoreOptions{Spec: dbPath}}
		cmd := NewCmd(f)
		cmd.SetArgs(tc.args)
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		err := cmd.ExecuteContext(context.Background())
		if code := cmdutil.ExitCode(err); code != tc.code {
			t.Errorf("%q: exit %d (%v), want %d", tc.args, code, err, tc.code)
		}
		if tc.errWant != "" && (err == nil || !strings.Contains(err.Error(), tc.errWant)) {
			t.Errorf("%q: error %v, want %q in it", tc.args, err, tc.errWant)
		}
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%q: output lacks %q:\n%s", tc.args, w, out.String())
			}
		}
	}
}

// TestMissingStoreNotCreated: comparing with a stored result when there is
// no store is one line and exit status 2, and creates no store.
func TestMissingStoreNotCreated(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.json")
	if err := os.WriteFile(file, doc(t, "aaaa0000000000000000000000000001", "6.1.0", 16000), 0o644); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(dir, "sub", "none.db")
	ios, _, _ := iostreams.Test()
	cmd := NewCmd(&cmdutil.Factory{IO: ios, Store: cmdutil.StoreOptions{Spec: dbPath}})
	cmd.SetArgs([]string{file, "bbbb"})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err := cmd.ExecuteContext(context.Background())
	if cmdutil.ExitCode(err) != 2 || !strings.Contains(err.Error(), "no results store there") {
		t.Errorf("compare with a missing store: %v (exit %d), want exit 2", err, cmdutil.ExitCode(err))
	}
	if _, err := os.Stat(filepath.Dir(dbPath)); !os.IsNotExist(err) {
		t.Errorf("compare created the store's directory: %v", err)
	}
}

// TestMissingStoreCreatesNothing: `compare --store missing.db ID` is one
// line and exit status 2, and leaves no database (nor its -wal or -shm)
// behind: ids are looked up in a store opened read-only.
func TestMissingStoreCreatesNothing(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a.json")
	os.WriteFile(file, doc(t, "aaaa0000000000000000000000000001", "6.1.0", 16000), 0o644)
	missing := filepath.Join(dir, "missing.db")
	ios, _, _ := iostreams.Test()
	cmd := NewCmd(&cmdutil.Factory{IO: ios, Store: cmdutil.StoreOptions{Spec: missing}})
	cmd.SetArgs([]string{file, "bbbb0000"})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err := cmd.ExecuteContext(context.Background())
	if code := cmdutil.ExitCode(err); code != 2 || err == nil || strings.Contains(err.Error(), "\n") ||
		!strings.Contains(err.Error(), "bbbb0000: no such file, nor a results store to look the id up in") {
		t.Errorf("exit %d, error %v; want 2 and one line naming the missing store", code, err)
	}
	if m, _ := filepath.Glob(missing + "*"); len(m) != 0 {
		t.Errorf("compare created %v", m)
	}
}
