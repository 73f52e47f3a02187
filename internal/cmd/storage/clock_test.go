package storage

import (
	"testing"

	"github.com/spf13/cobra"

	"boardbench/internal/cmdutil"
	"boardbench/internal/testutil/cmdtest"
)

// TestClockRefused: storage --clock is refused in one line, exit status 2,
// before anything is measured or written: without cpufreq (no clock to
// pin) or, where cpufreq offers clocks, without root.
func TestClockRefused(t *testing.T) {
	cmdtest.ClockRefused(t, "storage", func(f *cmdutil.Factory) *cobra.Command { return NewCmd(f, nil) }, t.TempDir(), "--short")
}
