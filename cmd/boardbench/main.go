// Command boardbench tells the truth about a single-board computer: what it
// is, how fast it really is, and why. Run `boardbench --help`.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"syscall"

	"boardbench/internal/cmd/root"
	"boardbench/internal/cmdutil"
	"boardbench/internal/interrupt"
	"boardbench/internal/iostreams"
	"boardbench/internal/stackroom"
)

func main() {
	// Grow the stack now, with two frames on it, not under cobra's
	// dispatch, where copying it maps much of the pcln table
	// (internal/stackroom).
	stackroom.Reserve()
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	ios := iostreams.System()
	f := cmdutil.NewFactory(ios)
	ctx, stop := interrupt.NotifyContext(context.Background())
	defer stop()
	cmd := root.NewCmdFor(f, args)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(ctx)
	if err == nil {
		err = ios.OutErr() // output that did not arrive is a failure
	}
	if errors.Is(err, syscall.EPIPE) {
		// The reader of standard output went away (`| head`): the reader's
		// choice, not a fault to report. Results were saved as usual; the
		// status is the one a shell expects of a writer to a closed pipe.
		return 128 + int(syscall.SIGPIPE)
	}
	if err != nil && !cmdutil.AlreadyReported(err) {
		msg := strings.ReplaceAll(err.Error(), "\n", " ")
		fmt.Fprintf(ios.ErrOut, "boardbench: %s\n", msg)
	}
	return cmdutil.ExitCode(err)
}
