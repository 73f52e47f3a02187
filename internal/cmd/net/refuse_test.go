package net

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
)

// TestApplyNeedsRoot: --apply without root is refused before anything is
// measured (the effective user id comes from the Factory's seam, so the
// test does not depend on who runs it): one line naming the command that
// measures without changes, exit status 2, nothing on standard output, no
// result file.
func TestApplyNeedsRoot(t *testing.T) {
	ios, stdout, stderr := iostreams.Test()
	f := cmdutil.NewFactory(ios)
	f.Euid = func() int { return 1000 }
	out := filepath.Join(t.TempDir(), "net.json")
	cmd := NewCmd(f, nil)
	cmd.SetArgs([]string{"--watch", "lo", "--duration", "1s", "--apply", "-o", out})
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err := cmd.ExecuteContext(context.Background())
	if cmdutil.ExitCode(err) != 2 || !strings.Contains(err.Error(), "--apply needs root") ||
		!strings.Contains(err.Error(), "`boardbench net` without --apply") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("net --apply as a user: %v (exit %d), want a one-line refusal, exit 2", err, cmdutil.ExitCode(err))
	}
	if stdout.Len() != 0 || stderr.Len() != 0 {
		t.Errorf("output before the refusal: stdout %q, stderr %q", stdout, stderr)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("result file written: %v", err)
	}
}
