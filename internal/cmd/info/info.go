// Package info implements `boardbench info`: what the machine is.
package info

import (
	"boardbench/internal/cmdutil"
	"boardbench/internal/inventory"
	"boardbench/internal/report/infotext"

	"github.com/spf13/cobra"
)

// NewCmd returns the info command.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	var root string
	var asJSON, noRedact bool
	cmd := &cobra.Command{
		Use:   "info",
		Short: "Describe the machine: OS, CPUs, SoC, memory, sensors, storage, buses, network",
		Long: `Describe the machine from /proc, /sys and a few safe commands.

Every fact is reported where the system exposes it; otherwise the output says
"unknown" or why (for example "needs root"). MAC addresses and serial numbers
are redacted unless --no-redact is given.`,
		Example: `  boardbench info
  boardbench info --json > board.json
  boardbench info --root ./fixtures/rock5b     # describe a captured machine`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			h, err := f.NewHost(root)
			if err != nil {
				return err
			}
			in := inventory.Collect(h, inventory.Options{Redact: !noRedact})
			var werr error
			if asJSON {
				werr = f.WriteJSON(in)
			} else {
				infotext.Render(f.IO.Out, in, f.IO.ColorEnabled())
			}
			if err := f.IO.OutErr(); err != nil {
				return err
			}
			return werr
		},
	}
	cmdutil.AddRootFlag(cmd, &root)
	cmdutil.AddJSONFlag(cmd, &asJSON)
	cmd.Flags().BoolVar(&noRedact, "no-redact", false, "show MAC addresses and serial numbers")
	return cmd
}
