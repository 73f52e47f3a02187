//go:build !board

package root

import (
	labcmd "boardbench/internal/cmd/lab"
	servecmd "boardbench/internal/cmd/serve"
)

// labCommands are the commands of a lab machine that a board build (go
// build -tags board) leaves out: here, in the full build, the real ones.
var labCommands = [...]subcommand{
	{"serve", servecmd.NewCmd},
	{"lab", labcmd.NewCmd},
}
