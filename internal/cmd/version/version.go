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
		Long: `Print boardbench's version, the commit it was built from (and whether the
tree had uncommitted changes), the commit and build dates where the build
recorded them, the architecture, the Go version and whether the C library is
linked in. boardbench --version prints the same line.`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			bi := buildinfo.Get()
			var werr error
			if asJSON {
				werr = f.WriteJSON(bi)
			} else {
				_, werr = fmt.Fprintln(f.IO.Out, bi.String())
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
