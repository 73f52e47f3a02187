package hostiletest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/result"
	"boardbench/internal/store"
)

// TestStoreSecretsRedacted gives the store as a URL or keyword/value
// string holding a password in every form pgx reads, on the command line
// and in BOARDBENCH_STORE, to commands that fail to connect (nothing
// listens on port 1) or to parse it: no password may appear in any
// output or error.
func TestStoreSecretsRedacted(t *testing.T) {
	specs := []string{
		"postgres://bench:Hunter2userinfo@127.0.0.1:1/b?connect_timeout=1",
		"postgres://bench@127.0.0.1:1/b?password=Hunter2query&connect_timeout=1",
		"postgresql://bench@127.0.0.1:1/b?sslpassword=Hunter2ssl&connect_timeout=1",
		"postgres://bench@127.0.0.1:1/b?pass%77ord=Hunter2encoded&connect_timeout=1",
		"postgres://bench@127.0.0.1:1/b?password=Hunter2badopt&connect_timeout=x",
		"postgres://bench:Hunter2badport@127.0.0.1:x/b",
		"mysql://bench:Hunter2scheme@db/b?password=Hunter2scheme2",
		// A keyword/value string is no URL: boardbench takes it for a
		// SQLite path, and must still not show its password.
		"host=127.0.0.1 port=1 user=bench password=Hunter2kv dbname=b",
		"host=127.0.0.1 port=1 user=bench password='Hunter2 quoted' dbname=b",
	}
	commands := [][]string{
		{"results", "list"},
		{"results", "show", "0123abcd"},
		{"results", "tag", "0123abcd", "x"},
		{"serve", "--listen", "127.0.0.1:0"},
		{"compare", "0123abcd", "4567ef01"},
	}
	check := func(t *testing.T, stdout, stderr string) {
		t.Helper()
		if i := strings.Index(stdout+stderr, "Hunter2"); i >= 0 {
			t.Errorf("a password is shown:\nstdout %q\nstderr %q", stdout, stderr)
		}
		if strings.TrimSpace(stderr) == "" {
			t.Error("no error line")
		}
	}
	// The source of push lies in the parent test's directory (a
	// subtest's own is named after the subtest, spec and password in it)
	// and exists, as push never creates one, so that push reaches the
	// target.
	src := filepath.Join(t.TempDir(), "r.db")
	st, err := store.Open(context.Background(), src)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	for _, spec := range specs {
		for _, c := range commands {
			t.Run(strings.Join(c, " ")+" "+spec, func(t *testing.T) {
				stdout, stderr, _ := runWithin(t, slowDeadline, append(append([]string{}, c...), "--store", spec)...)
				check(t, stdout, stderr)
			})
		}
		t.Run("BOARDBENCH_STORE "+spec, func(t *testing.T) {
			t.Setenv("BOARDBENCH_STORE", spec)
			stdout, stderr, _ := runWithin(t, slowDeadline, "results", "list")
			check(t, stdout, stderr)
		})
		t.Run("results push --to "+spec, func(t *testing.T) {
			stdout, stderr, _ := runWithin(t, slowDeadline, "results", "push", "--store", src, "--to", spec)
			check(t, stdout, stderr)
		})
	}
}

// TestCmdPowerSourceNotStored: a cmd: power source's command line may hold
// credentials (curl -u admin:…); the result keeps its program's name only,
// and its error messages never quote the rest.
func TestCmdPowerSourceNotStored(t *testing.T) {
	if _, err := os.Stat("/bin/sh"); err != nil {
		t.Skip("no /bin/sh")
	}
	out := filepath.Join(t.TempDir(), "r.json")
	// The program prints a reading, then a line that is not one (which
	// quotes the secret), then fails with the secret on standard error.
	power := `cmd:echo 2.5; echo "Hunter2cmd"; echo "curl: -u admin:Hunter2cmd refused" >&2; exit 3`
	_, stderr, code := runWithin(t, slowDeadline, "monitor", "-o", out, "--interval", "0.3", "--idle-baseline", "0", "--power", power, "--", "sleep", "2")
	// 3: measured, not valid (a loaded machine's verdict).
	if code != 0 && code != 3 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "Hunter2") || strings.Contains(string(data), "admin") {
		t.Errorf("the result holds the cmd: source's command line:\n%s", grepLines(string(data), "Hunter2", "admin"))
	}
	r, err := result.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Power == nil || r.Power.Source != "cmd:echo" {
		t.Errorf("power source %+v, want cmd:echo", r.Power)
	}
}

func grepLines(s string, words ...string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		for _, w := range words {
			if strings.Contains(l, w) {
				out = append(out, l)
				break
			}
		}
	}
	return strings.Join(out, "\n")
}
