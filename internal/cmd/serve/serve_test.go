package serve

import (
	"context"
	"testing"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
)

func TestBadListenIsAUsageError(t *testing.T) {
	for _, addr := range []string{"nonsense", "127.0.0.1", ""} {
		ios, _, _ := iostreams.Test()
		f := cmdutil.NewFactory(ios)
		f.Store.Spec = t.TempDir() + "/results.db"
		err := run(context.Background(), f, addr, false)
		if cmdutil.ExitCode(err) != 2 {
			t.Errorf("--listen %q: %v (exit %d), want exit 2", addr, err, cmdutil.ExitCode(err))
		}
	}
}

func TestServesUntilCancelledAndWarnsOffLocalhost(t *testing.T) {
	for _, c := range []struct {
		addr string
		warn bool
	}{{"127.0.0.1:0", false}, {"0.0.0.0:0", true}} {
		ios, _, _ := iostreams.Test()
		stderr := &lockedBuffer{}
		ios.ErrOut = stderr
		f := cmdutil.NewFactory(ios)
		f.Store.Spec = t.TempDir() + "/results.db"
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- run(ctx, f, c.addr, true) }()
		// The server is up once it has said where.
		for i := 0; i < 200 && !containsLine(stderr.String(), "serving"); i++ {
			sleepBriefly()
		}
		cancel()
		if err := <-done; err != nil {
			t.Errorf("%s: %v", c.addr, err)
		}
		if got := containsLine(stderr.String(), "warning: --listen"); got != c.warn {
			t.Errorf("%s: warning %v, want %v: %q", c.addr, got, c.warn, stderr.String())
		}
	}
}
