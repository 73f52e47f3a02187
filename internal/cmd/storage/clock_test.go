package storage

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"boardbench/internal/cmdutil"
	"boardbench/internal/host"
	"boardbench/internal/iostreams"
	"boardbench/internal/tune"
)

// TestClockRefused: storage --clock is refused in one line, exit status 2,
// before anything is measured or written: without cpufreq (no clock to
// pin) or, where cpufreq offers clocks, without root.
func TestClockRefused(t *testing.T) {
	ios, stdout, _ := iostreams.Test()
	f := cmdutil.NewFactory(ios)
	f.Euid = func() int { return 1000 }
	cmd := NewCmd(f, nil)
	cmd.SetArgs([]string{t.TempDir(), "--clock", "600", "--short"})
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	err := cmd.ExecuteContext(context.Background())
	h, herr := host.New("/")
	if herr != nil {
		t.Fatal(herr)
	}
	want := "needs root"
	if _, perr := tune.PlanClock(h, 600); errors.Is(perr, tune.ErrNoClocks) {
		want = "no cpufreq here"
	}
	if cmdutil.ExitCode(err) != 2 || err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("storage --clock 600: %v (exit %d), want one line with %q, exit 2", err, cmdutil.ExitCode(err), want)
	}
	if stdout.Len() != 0 {
		t.Errorf("output before the refusal: %q", stdout)
	}
}
