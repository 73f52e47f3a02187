// Package version implements `boardbench version`.
package version

import (
	"fmt"

	"boardbench/internal/buildinfo"
	"boardbench/internal/cmdutil"

	"github.com/spf13/cobra"
)

// NewCmd returns the version command.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print boardbench's version and build",
		Example: `  boardbench version
  boardbench version --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			bi := buildinfo.Get()
			var werr error
			if asJSON {
				werr = f.WriteJSON(bi)
			} else {
				cgo := "without C library"
				if bi.CGO {
					cgo = "with C library"
				}
				_, werr = fmt.Fprintf(f.IO.Out, "boardbench %s (%s, %s, %s)\n", bi.Version, bi.Arch, bi.GoVersion, cgo)
			}
			if err := f.IO.OutErr(); err != nil {
				return err
			}
			return werr
		},
	}
	cmdutil.AddJSONFlag(cmd, &asJSON)
	return cmd
}
