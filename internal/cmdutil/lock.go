package cmdutil

import (
	"github.com/spf13/cobra"
)

// AddWaitFlag adds --wait to a command that tunes the machine: wait for
// another tuning run on the same root to end instead of refusing (pass it
// to tune.CommandLock or tune.WaitOption).
func AddWaitFlag(cmd *cobra.Command, wait *bool) {
	cmd.Flags().BoolVar(wait, "wait", false, "wait for another tuning run on this machine (or --root) to end instead of refusing")
}
