//go:build board

package root

import (
	"boardbench/internal/cmdutil"

	"github.com/spf13/cobra"
)

// labCommands are, in a board build, a stand-in for each lab command left
// out: it takes any arguments and refuses in one line naming the command
// to run on a lab machine (exit 2).
var labCommands = [...]subcommand{
	{"serve", func(*cmdutil.Factory) *cobra.Command {
		return labOnly("serve", "Show the results store in a web browser (lab machines: not in a board build)")
	}},
	{"lab", func(*cmdutil.Factory) *cobra.Command {
		return labOnly("lab", "Manage a lab's upload tokens (lab machines: not in a board build)")
	}},
}

// labOnly is the stand-in of the lab command name.
func labOnly(name, short string) *cobra.Command {
	return &cobra.Command{
		Use:   name,
		Short: short,
		Long: short + `.

This is a board build of boardbench (go build -tags board), made small for
boards with little memory; run ` + "`boardbench " + name + "`" + ` on a lab machine with the
full build: ` + cmdutil.FullBuild + `.`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, a := range args {
				if a == "--help" || a == "-h" {
					return cmd.Help()
				}
			}
			// The arguments are not echoed: they may hold a password
			// (--store postgres://...) or terminal escapes.
			line := []string{"boardbench", name}
			if len(args) > 0 {
				line = append(line, "with the same arguments")
			}
			return cmdutil.LabOnly("boardbench "+name, line...)
		},
	}
}
