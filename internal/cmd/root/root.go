// Package root assembles boardbench's command tree.
package root

import (
	"fmt"

	"boardbench/internal/cmd/c2c"
	"boardbench/internal/cmd/capture"
	"boardbench/internal/cmd/clock"
	"boardbench/internal/cmd/info"
	"boardbench/internal/cmd/mem"
	"boardbench/internal/cmd/monitor"
	"boardbench/internal/cmd/report"
	"boardbench/internal/cmd/restore"
	"boardbench/internal/cmd/run"
	"boardbench/internal/cmd/version"
	"boardbench/internal/cmdutil"
	"boardbench/internal/tune"

	"github.com/spf13/cobra"
)

// NewCmd returns the top-level boardbench command with every subcommand.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "boardbench <command> [flags]",
		Short: "Tell the truth about a single-board computer: what it is, how fast it is, and why",
		Long: `boardbench identifies a board (SoC, core types, clusters, clocks, sensors,
memory, storage, buses) and measures it with figures that carry their evidence.`,
		Example: `  boardbench info
  sudo boardbench run -o myboard.json
  boardbench report --markdown-row myboard.json
  boardbench monitor -- 7zz b
  boardbench capture -o myboard.tar.gz`,
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRun: func(c *cobra.Command, _ []string) {
			warnLeftovers(f, c)
		},
	}
	cmd.SetOut(f.IO.Out)
	cmd.SetErr(f.IO.ErrOut)
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error { return &cmdutil.UsageError{Err: err} })
	cmd.AddCommand(
		info.NewCmd(f),
		capture.NewCmd(f),
		clock.NewCmd(f),
		version.NewCmd(f),
		mem.NewCmd(f),
		c2c.NewCmd(f),
		monitor.NewCmd(f),
		run.NewCmd(f),
		report.NewCmd(f),
		restore.NewCmd(f),
	)
	return cmd
}

// warnLeftovers says in one line on stderr that a previous boardbench
// process left tunables changed (its state file is still there). run and
// restore handle leftovers themselves; an unreadable or missing state
// directory says nothing.
func warnLeftovers(f *cmdutil.Factory, c *cobra.Command) {
	if c.Name() == "run" || c.Name() == "restore" {
		return
	}
	if left, err := tune.Leftovers(tune.StateDir()); err == nil && len(left) > 0 {
		fmt.Fprintf(f.IO.ErrOut, "boardbench: %s\n", tune.LeftoverLine(left))
	}
}
