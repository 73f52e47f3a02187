package results

import (
	"context"
	"net"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/cmdutil"
	"boardbench/internal/labapi"
	"boardbench/internal/serve"
	"boardbench/internal/store"
)

// lab serves a SQLite lab with uploads on; it returns its URL and a token.
func lab(t *testing.T) (*httptest.Server, store.Store, string) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "lab.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	tok, err := store.AddToken(ctx, st, "test-board")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(serve.New(serve.Config{Store: st, Uploads: &serve.Uploads{Store: st}}).Handler())
	return srv, st, tok
}

func pendingOf(t *testing.T, path string) []store.Pending {
	t.Helper()
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	p, err := store.PendingPushes(context.Background(), st, "")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPushToLabKeepsPendingUntilItAnswers: a push to a lab that is not
// up keeps both results as pending (exit 1); once it is up, --pending
// pushes them and empties the queue; a push again finds them present.
func TestPushToLabKeepsPendingUntilItAnswers(t *testing.T) {
	path := setup(t)
	srv, labStore, tok := lab(t)
	url := "http://" + srv.Listener.Addr().String() // nothing listens there once closed
	srv.Listener.Close()
	tokFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokFile, []byte(tok), 0o600); err != nil {
		t.Fatal(err)
	}
	_, errOut, err := run(t, path, false, "", "push", url, "--token-file", tokFile)
	if cmdutil.ExitCode(err) != 1 || !strings.Contains(err.Error(), "2 result(s) not pushed") {
		t.Fatalf("push to a lab that is down: %v (exit %d)\n%s", err, cmdutil.ExitCode(err), errOut)
	}
	if p := pendingOf(t, path); len(p) != 2 || p[0].Target != url || p[0].LastError == "" {
		t.Fatalf("pending: %+v", p)
	}
	// The lab comes up at the same address.
	srv2 := httptest.NewUnstartedServer(srv.Config.Handler)
	ln, lerr := listenOn(srv.Listener.Addr().String())
	if lerr != nil {
		t.Skipf("the port was taken meanwhile: %v", lerr)
	}
	srv2.Listener = ln
	srv2.Start()
	defer srv2.Close()
	t.Setenv(labapi.TokenEnv, tok)
	out, errOut, err := run(t, path, false, "", "push", "--pending", "--json")
	if err != nil || !strings.Contains(out, `"pushed": 2`) {
		t.Fatalf("--pending: %v\n%s%s", err, out, errOut)
	}
	if p := pendingOf(t, path); len(p) != 0 {
		t.Errorf("still pending: %+v", p)
	}
	if _, total, _ := labStore.List(context.Background(), store.Query{}); total != 2 {
		t.Errorf("the lab holds %d results, want 2", total)
	}
	out, _, err = run(t, path, false, "", "push", url)
	if err != nil || !strings.Contains(out, "pushed 0 new result(s)") || !strings.Contains(out, "2 were already there") {
		t.Errorf("pushing again: %v\n%s", err, out)
	}
}

func TestPushRefusesBadInput(t *testing.T) {
	path := setup(t)
	t.Setenv(labapi.TokenEnv, "")
	for _, args := range [][]string{
		{"push"},
		{"push", "https://lab.example.org"}, // no token
		{"push", "https://user:pw@lab.example.org", "--token-file", "/x"}, // credentials in the URL
		{"push", "a.db", "--to", "b.db"},
		{"push", "--pending", "--board", "x"},
	} {
		_, _, err := run(t, path, false, "", args...)
		if cmdutil.ExitCode(err) != 2 {
			t.Errorf("%q: %v (exit %d), want exit 2", args, err, cmdutil.ExitCode(err))
		}
		if err != nil && strings.Contains(err.Error(), "pw@") {
			t.Errorf("%q: the error shows the password: %v", args, err)
		}
	}
}

// TestPushToUnreachablePostgresKeepsPendingWithoutPassword: the target
// is kept without its password, and --pending without the URL says to
// give it.
func TestPushToUnreachablePostgresKeepsPendingWithoutPassword(t *testing.T) {
	path := setup(t)
	target := "postgres://bench:Hunter2@127.0.0.1:1/lab?connect_timeout=2"
	_, _, err := run(t, path, false, "", "push", target)
	if cmdutil.ExitCode(err) != 1 {
		t.Fatalf("push to nothing: %v (exit %d)", err, cmdutil.ExitCode(err))
	}
	p := pendingOf(t, path)
	if len(p) != 2 {
		t.Fatalf("pending: %+v", p)
	}
	for _, x := range p {
		if strings.Contains(x.Target+x.LastError, "Hunter2") {
			t.Errorf("the password is kept: %+v", x)
		}
	}
	_, errOut, err := run(t, path, false, "", "push", "--pending")
	if err == nil || !strings.Contains(errOut, "give its URL") {
		t.Errorf("--pending without the URL: %v\n%s", err, errOut)
	}
}

func listenOn(addr string) (net.Listener, error) { return net.Listen("tcp", addr) }
