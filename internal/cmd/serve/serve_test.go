package serve

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
	"boardbench/internal/store"
	"boardbench/internal/testutil/wait"
)

// newStore makes an empty store and returns its path.
func newStore(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "results.db")
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	return path
}

// TestMissingStoreIsRefusedNotCreated checks that serve, which only
// reads, never creates a store: a path that does not exist is bad input.
func TestMissingStoreIsRefusedNotCreated(t *testing.T) {
	ios, _, _ := iostreams.Test()
	f := cmdutil.NewFactory(ios)
	f.Store.Spec = filepath.Join(t.TempDir(), "nonexist.db")
	err := run(context.Background(), f, "127.0.0.1:0", nil, false)
	if cmdutil.ExitCode(err) != 2 || !strings.Contains(err.Error(), "no results store there") {
		t.Errorf("missing store: %v (exit %d), want exit 2", err, cmdutil.ExitCode(err))
	}
	if _, err := os.Stat(f.Store.Spec); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("serve created %s", f.Store.Spec)
	}
}

func TestBadListenIsAUsageError(t *testing.T) {
	for _, addr := range []string{"nonsense", "127.0.0.1", "", "127.0.0.1:99999", "127.0.0.1:-1", "127.0.0.1:nosuchservice"} {
		ios, _, _ := iostreams.Test()
		f := cmdutil.NewFactory(ios)
		f.Store.Spec = t.TempDir() + "/results.db"
		err := run(context.Background(), f, addr, nil, false)
		if cmdutil.ExitCode(err) != 2 {
			t.Errorf("--listen %q: %v (exit %d), want exit 2", addr, err, cmdutil.ExitCode(err))
		}
	}
}

func TestServesUntilCancelledAndWarnsOffLocalhost(t *testing.T) {
	for _, c := range []struct {
		addr string
		warn bool
		// shown is how the address starts in the "serving" line.
		shown string
	}{{"127.0.0.1:0", false, "127.0.0.1:"}, {"0.0.0.0:0", true, "0.0.0.0:"}} {
		ios, _, _ := iostreams.Test()
		stderr := &lockedBuffer{}
		ios.ErrOut = stderr
		f := cmdutil.NewFactory(ios)
		f.Store.Spec = newStore(t)
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- run(ctx, f, c.addr, nil, true) }()
		// The server is up once it has said where.
		wait.Until(t, "the serving line", func() bool { return containsLine(stderr.String(), "serving") })
		cancel()
		if err := <-done; err != nil {
			t.Errorf("%s: %v", c.addr, err)
		}
		if !regexp.MustCompile(`serving \S+ on http://` + regexp.QuoteMeta(c.shown) + `[0-9]+/`).MatchString(stderr.String()) {
			t.Errorf("%s: the address is not shown as given: %q", c.addr, stderr.String())
		}
		if got := containsLine(stderr.String(), "warning: --listen "+c.addr+": "); got != c.warn {
			t.Errorf("%s: warning %v, want %v: %q", c.addr, got, c.warn, stderr.String())
		}
	}
}
