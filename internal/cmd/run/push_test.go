package run

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
	"boardbench/internal/labapi"
	"boardbench/internal/result"
	"boardbench/internal/serve/servetest"
	"boardbench/internal/session"
	"boardbench/internal/store"
)

func TestPushFlagsCheckedBeforeMeasuring(t *testing.T) {
	t.Setenv(labapi.TokenEnv, "")
	ios, _, _ := iostreams.Test()
	f := cmdutil.NewFactory(ios)
	for _, c := range []struct{ push, tokenFile string }{
		{"", "/etc/token"},
		{"postgres://lab@db/x", ""},
		{"https://lab.example.org", ""}, // no token anywhere
		{"https://lab.example.org", "/nonexistent/token"},
	} {
		if _, err := pushClient(f, c.push, c.tokenFile); cmdutil.ExitCode(err) != 2 {
			t.Errorf("--push %q --token-file %q: %v (exit %d), want exit 2", c.push, c.tokenFile, err, cmdutil.ExitCode(err))
		}
	}
	if c, err := pushClient(f, "", ""); c != nil || err != nil {
		t.Errorf("no --push: %v, %v", c, err)
	}
}

// TestPushAfterRunKeepsPending: the run's stored result pushed to a lab
// that is down is kept as pending, with a warning.
func TestPushAfterRunKeepsPending(t *testing.T) {
	path := filepath.Join(t.TempDir(), "board.db")
	ctx := context.Background()
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	r, _ := servetest.Result(1)
	doc, err := result.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	id, _, err := st.Put(ctx, doc)
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	ios, _, errOut := iostreams.Test()
	f := cmdutil.NewFactory(ios)
	f.Store.Spec = path
	tokFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokFile, []byte("bbt_x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := pushClient(f, "http://127.0.0.1:1", tokFile)
	if err != nil {
		t.Fatal(err)
	}
	c.Attempts = 1
	pushAfterRun(ctx, f, c, &session.Outcome{StoreID: id})
	if !strings.Contains(errOut.String(), "warning: --push") || !strings.Contains(errOut.String(), "pending") {
		t.Errorf("no warning: %s", errOut)
	}
	st, err = store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := store.PendingPushes(ctx, st, "")
	if err != nil || len(p) != 1 || p[0].ID != id || p[0].Target != "http://127.0.0.1:1" {
		t.Errorf("pending: %+v, %v", p, err)
	}
}
