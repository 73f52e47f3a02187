package lab

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
	"boardbench/internal/store"
)

func run(t *testing.T, path string, args ...string) (string, string, error) {
	t.Helper()
	ios, out, errOut := iostreams.Test()
	f := &cmdutil.Factory{IO: ios, Store: cmdutil.StoreOptions{Spec: path}}
	cmd := NewCmd(f)
	cmd.SetArgs(args)
	cmd.SetOut(out)
	cmd.SetErr(errOut)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err := cmd.ExecuteContext(context.Background())
	return out.String(), errOut.String(), err
}

func TestTokenAddListRevoke(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lab.db")
	out, errOut, err := run(t, path, "token", "add", "rock5b")
	secret := strings.TrimSpace(out)
	if err != nil || !strings.HasPrefix(secret, store.TokenPrefix) || strings.Contains(errOut, secret) {
		t.Fatalf("add: %v, %q\n%s", err, out, errOut)
	}
	if !strings.Contains(errOut, "shown only now") {
		t.Errorf("add does not say the token is shown once: %s", errOut)
	}
	for _, args := range [][]string{{"token", "add", "rock5b"}, {"token", "add", "bad name"}, {"token", "revoke", "nosuch"}, {"token", "add"}} {
		if _, _, err := run(t, path, args...); cmdutil.ExitCode(err) != 2 {
			t.Errorf("%q: %v (exit %d), want exit 2", args, err, cmdutil.ExitCode(err))
		}
	}
	if _, _, err := run(t, path, "token", "revoke", "rock5b"); err != nil {
		t.Fatal(err)
	}
	out, _, err = run(t, path, "token", "list")
	if err != nil || !strings.Contains(out, "rock5b") || !strings.Contains(out, "revoked") || strings.Contains(out, secret) {
		t.Errorf("list: %v\n%s", err, out)
	}
	out, _, err = run(t, path, "token", "list", "--json")
	if err != nil || !strings.Contains(out, `"name": "rock5b"`) || !strings.Contains(out, `"revoked_at"`) || strings.Contains(out, secret) {
		t.Errorf("list --json: %v\n%s", err, out)
	}
}

func TestTokenListOfMissingStoreIsRefused(t *testing.T) {
	_, _, err := run(t, filepath.Join(t.TempDir(), "none.db"), "token", "list")
	if cmdutil.ExitCode(err) != 2 {
		t.Errorf("list on no store: %v (exit %d)", err, cmdutil.ExitCode(err))
	}
}
