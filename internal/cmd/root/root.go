// Package root assembles boardbench's command tree.
package root

import (
	"boardbench/internal/buildinfo"
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
		Use:   "boardbench",
		Short: "Tell the truth about a single-board computer: what it is, how fast it is, and why",
		Long: `boardbench identifies a board (SoC, core types, clusters, clocks, sensors,
memory, storage, buses) and measures it with figures that carry their evidence.`,
		Example: `  boardbench info
  sudo boardbench run -o myboard.json
  boardbench report --markdown-row myboard.json
  boardbench monitor -- 7zz b
  boardbench capture -o myboard.tar.gz`,
		// Usage errors come from cobra's hooks, never from its messages:
		// a leftover argument here is an unknown command, flag errors go
		// through FlagErrorFunc, and required flags are checked before
		// any command runs.
		Args: cmdutil.UnknownCommand,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			return cmdutil.ValidateFlags(cmd)
		},
		Version:       buildinfo.Get().String(),
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	cmd.SetVersionTemplate("{{.Version}}\n")
	cmd.Flags().BoolP("version", "v", false, "print boardbench's version and build (as boardbench version does)")
	cmd.SetOut(f.IO.Out)
	cmd.SetErr(f.IO.ErrOut)
	cmd.SetFlagErrorFunc(cmdutil.FlagErrorFunc)
	cmd.SetHelpCommand(cmdutil.NewHelpCmd())
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
