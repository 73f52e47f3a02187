// Command boardbench tells the truth about a single-board computer: what it
// is, how fast it really is, and why. Run `boardbench --help`.
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"boardbench/internal/cmd/root"
	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	ios := iostreams.System()
	f := cmdutil.NewFactory(ios)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cmd := root.NewCmd(f)
	cmd.SetArgs(args)
	err := cmd.ExecuteContext(ctx)
	if err == nil {
		err = ios.OutErr() // output that did not arrive is a failure
	}
	if err != nil {
		if isUnknownCommand(err) {
			err = &cmdutil.UsageError{Err: err}
		}
		msg := strings.ReplaceAll(err.Error(), "\n", " ")
		fmt.Fprintf(ios.ErrOut, "boardbench: %s\n", msg)
	}
	return cmdutil.ExitCode(err)
}

func isUnknownCommand(err error) bool {
	s := err.Error()
	return strings.HasPrefix(s, "unknown command") || strings.HasPrefix(s, "accepts ") ||
		strings.Contains(s, "arg(s)") || strings.HasPrefix(s, "required flag")
}
