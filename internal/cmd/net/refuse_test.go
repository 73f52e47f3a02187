package net

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
	"boardbench/internal/testutil/cmdtest"
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
	err := cmdtest.Execute(cmd, "--watch", "lo", "--duration", "1s", "--apply", "-o", out)
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

// TestClockRefused: --clock is refused in one line, exit status 2, before
// anything is measured: without cpufreq (no clock to pin) or, where
// cpufreq offers clocks, without root.
func TestClockRefused(t *testing.T) {
	cmdtest.ClockRefused(t, "net", func(f *cmdutil.Factory) *cobra.Command { return NewCmd(f, nil) }, "--watch", "lo", "--duration", "1s")
}

// TestNewCmdOptions checks the flags reach the run function as Options,
// and that bad combinations are usage errors (exit 2) before it runs.
func TestNewCmdOptions(t *testing.T) {
	tests := []struct {
		args []string
		exit int
		want func(Options) bool
	}{
		{[]string{"--peer", "10.0.0.2", "--bidir", "-b", "880m", "--udp-rate", "400M"}, 0,
			func(o Options) bool { return o.bidir && o.bitrate == "880m" && o.udpRate == "400M" }},
		{[]string{"--peer", "10.0.0.2", "--clock", "600", "--power", "none"}, 0, func(o Options) bool { return o.clockMHz == 600 }},
		{[]string{"--watch", "eth0", "--headroom"}, 0, func(o Options) bool { return o.headroom }},
		{[]string{"--peer", "10.0.0.2", "--headroom"}, 2, nil},
		{[]string{"--watch", "eth0", "--bidir"}, 2, nil},
		{[]string{"--peer", "10.0.0.2", "-b", "fast"}, 2, nil},
		{[]string{"--peer", "10.0.0.2", "--clock", "-5"}, 2, nil},
	}
	for _, tt := range tests {
		ios, _, _ := iostreams.Test()
		var got *Options
		cmd := NewCmd(cmdutil.NewFactory(ios), func(o *Options) error {
			got = o
			return nil
		})
		err := cmdtest.Execute(cmd, tt.args...)
		if code := cmdutil.ExitCode(err); code != tt.exit {
			t.Errorf("%v: exit %d (%v), want %d", tt.args, code, err, tt.exit)
			continue
		}
		if tt.want != nil && (got == nil || got.Factory == nil || got.Ctx == nil || !tt.want(*got)) {
			t.Errorf("%v: options %+v", tt.args, got)
		}
	}
}
