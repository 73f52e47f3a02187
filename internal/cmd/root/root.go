// Package root assembles boardbench's command tree.
package root

import (
	"fmt"
	"strings"

	"boardbench/internal/buildinfo"
	"boardbench/internal/cmd/c2c"
	"boardbench/internal/cmd/capture"
	"boardbench/internal/cmd/clock"
	"boardbench/internal/cmd/compare"
	importcmd "boardbench/internal/cmd/import"
	"boardbench/internal/cmd/info"
	"boardbench/internal/cmd/kernel"
	"boardbench/internal/cmd/mem"
	"boardbench/internal/cmd/monitor"
	netcmd "boardbench/internal/cmd/net"
	refcmd "boardbench/internal/cmd/reference"
	"boardbench/internal/cmd/report"
	"boardbench/internal/cmd/restore"
	"boardbench/internal/cmd/results"
	"boardbench/internal/cmd/review"
	"boardbench/internal/cmd/run"
	"boardbench/internal/cmd/storage"
	"boardbench/internal/cmd/sweep"
	"boardbench/internal/cmd/thermal"
	"boardbench/internal/cmd/version"
	"boardbench/internal/cmd/writes"
	"boardbench/internal/cmdstore"
	"boardbench/internal/cmdutil"
	"boardbench/internal/textfmt"
	"boardbench/internal/tune"

	"github.com/spf13/cobra"
)

// subcommand is one of boardbench's subcommands: its name (as typed on
// the command line) and the function that builds it.
type subcommand struct {
	name string
	new  func(f *cmdutil.Factory) *cobra.Command
}

// subcommands lists every subcommand but the lab's (labCommands), in the
// order the full tree registers them. It is static data: nothing is built
// until a command is asked for.
var subcommands = [...]subcommand{
	{"info", info.NewCmd},
	{"capture", capture.NewCmd},
	{"clock", func(f *cmdutil.Factory) *cobra.Command { return clock.NewCmd(f, nil) }},
	{"version", version.NewCmd},
	{"mem", func(f *cmdutil.Factory) *cobra.Command { return mem.NewCmd(f, nil) }},
	{"c2c", func(f *cmdutil.Factory) *cobra.Command { return c2c.NewCmd(f, nil) }},
	{"storage", func(f *cmdutil.Factory) *cobra.Command { return storage.NewCmd(f, nil) }},
	{"writes", func(f *cmdutil.Factory) *cobra.Command { return writes.NewCmd(f, nil) }},
	{"monitor", func(f *cmdutil.Factory) *cobra.Command { return monitor.NewCmd(f, nil) }},
	{"run", func(f *cmdutil.Factory) *cobra.Command { return run.NewCmd(f, nil) }},
	{"report", report.NewCmd},
	{"restore", restore.NewCmd},
	{"sweep", func(f *cmdutil.Factory) *cobra.Command { return sweep.NewCmd(f, nil) }},
	{"thermal", func(f *cmdutil.Factory) *cobra.Command { return thermal.NewCmd(f, nil) }},
	{"review", func(f *cmdutil.Factory) *cobra.Command { return review.NewCmd(f, nil) }},
	{"kernel", kernel.NewCmd},
	{"net", func(f *cmdutil.Factory) *cobra.Command { return netcmd.NewCmd(f, nil) }},
	{"results", results.NewCmd},
	{"compare", compare.NewCmd},
	{"import", importcmd.NewCmd},
	{"reference", refcmd.NewCmd},
}

// NewCmd returns the top-level boardbench command with every subcommand.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	return NewCmdFor(f, nil)
}

// NewCmdFor returns the top-level boardbench command for the command line
// args (without the program name). When args start with a subcommand's
// name, only that subcommand is built: building the whole tree (every
// command's flags and help) costs start-up time and memory a command does
// not use. Every other command line gets the whole tree, which it may
// need: no arguments, flags before the command, `help`, `completion` and
// cobra's `__complete`, or an unknown name (whose error suggests the
// nearest commands). The command a command line runs, its help, flags,
// errors and exit status are the same either way.
func NewCmdFor(f *cmdutil.Factory, args []string) *cobra.Command {
	cmd := newRoot(f)
	if len(args) > 0 {
		if sub := lookup(args[0]); sub != nil {
			cmd.AddCommand(sub(f))
			return cmd
		}
	}
	for _, s := range subcommands {
		cmd.AddCommand(s.new(f))
	}
	for _, s := range labCommands {
		cmd.AddCommand(s.new(f))
	}
	return cmd
}

// lookup returns the constructor of the subcommand called name, or nil.
func lookup(name string) func(*cmdutil.Factory) *cobra.Command {
	for _, s := range subcommands {
		if s.name == name {
			return s.new
		}
	}
	for _, s := range labCommands {
		if s.name == name {
			return s.new
		}
	}
	return nil
}

// newRoot returns the top-level command without subcommands.
func newRoot(f *cmdutil.Factory) *cobra.Command {
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
			if err := cmdutil.ValidateFlags(cmd); err != nil {
				return err
			}
			warnLeftovers(f, cmd)
			f.Keep = cmdstore.Keeper(f.Store)
			return nil
		},
		Version:       buildinfo.Get().String(),
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	cmd.SetVersionTemplate("{{.Version}}\n")
	// Flag descriptions wrap to the width of every text report; the
	// subcommands inherit the template.
	cmd.SetUsageTemplate(strings.ReplaceAll(cmd.UsageTemplate(), ".FlagUsages ",
		fmt.Sprintf(".FlagUsagesWrapped %d ", textfmt.MaxWidth)))
	cmdstore.AddFlags(cmd, &f.Store)
	cmd.Flags().BoolP("version", "v", false, "print boardbench's version and build (as boardbench version does)")
	cmd.SetOut(f.IO.Out)
	cmd.SetErr(f.IO.ErrOut)
	cmd.SetFlagErrorFunc(cmdutil.FlagErrorFunc)
	cmd.SetHelpCommand(cmdutil.NewHelpCmd())
	return cmd
}

// warnLeftovers says in one line on stderr that a previous boardbench
// process left tunables changed (its state file is still there), looking
// in the state directory of the command's --root (tune.StateDirFor). run,
// restore and `review --restore` handle leftovers themselves; an
// unreadable or missing state directory says nothing.
func warnLeftovers(f *cmdutil.Factory, c *cobra.Command) {
	if c.Name() == "run" || c.Name() == "restore" {
		return
	}
	if fl := c.Flags().Lookup("restore"); fl != nil && fl.Changed && fl.Value.String() == "true" {
		return
	}
	root := "/"
	if fl := c.Flags().Lookup("root"); fl != nil {
		root = fl.Value.String()
	}
	if left, err := tune.Leftovers(tune.StateDirFor(root)); err == nil && len(left) > 0 {
		fmt.Fprintf(f.IO.ErrOut, "boardbench: %s\n", tune.LeftoverLine(left))
	}
}
