// Package root assembles boardbench's command tree.
package root

import (
	"boardbench/internal/cmd/c2c"
	"boardbench/internal/cmd/capture"
	"boardbench/internal/cmd/clock"
	"boardbench/internal/cmd/info"
	"boardbench/internal/cmd/mem"
	"boardbench/internal/cmd/monitor"
	"boardbench/internal/cmd/report"
	"boardbench/internal/cmd/run"
	"boardbench/internal/cmd/version"
	"boardbench/internal/cmdutil"

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
	)
	return cmd
}
