//go:build !board

package root

import (
	labcmd "boardbench/internal/cmd/lab"
	servecmd "boardbench/internal/cmd/serve"
	"boardbench/internal/cmdutil"

	"github.com/spf13/cobra"
)

// labCmds returns the commands of a lab machine that a board build (go
// build -tags board) leaves out: here, in the full build, the real ones.
func labCmds(f *cmdutil.Factory) []*cobra.Command {
	return []*cobra.Command{servecmd.NewCmd(f), labcmd.NewCmd(f)}
}
