// Package sessioncmd holds what the measuring commands that change the
// machine (`boardbench run`, `sweep` and `thermal`) do the same way around
// their session: refuse to start over changes a crashed run left behind,
// check the --idle-timeout flag, and after the session print the result,
// say where it was written and turn an interruption into exit status 130.
package sessioncmd

import (
	"errors"
	"fmt"
	"io"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/report/runtext"
	"boardbench/internal/session"
	"boardbench/internal/tune"
)

// CheckLeftovers returns an error when an earlier run left settings of
// root ("/" for the live machine) to restore, unless force is set; then it
// only warns on w. It looks in the state directory of root
// (tune.StateDirFor). command names the command in the error ("pass
// --force to sweep anyway").
func CheckLeftovers(w io.Writer, force bool, command, root string) error {
	left, _ := tune.Leftovers(tune.StateDirFor(root))
	if len(left) == 0 {
		return nil
	}
	if !force {
		return fmt.Errorf("%s first, or pass --force to %s anyway", tune.LeftoverLine(left), command)
	}
	fmt.Fprintf(w, "boardbench: %s (going on because of --force)\n", tune.LeftoverLine(left))
	return nil
}

// CheckIdleTimeout rejects a negative --idle-timeout as a usage error.
func CheckIdleTimeout(d time.Duration) error {
	if d < 0 {
		return cmdutil.Usagef("--idle-timeout %s: must not be negative", d)
	}
	return nil
}

// ExitError maps a session's error to the command's: an interruption
// becomes a *cmdutil.InterruptedError (exit 130), anything else is
// returned as it is.
func ExitError(runErr error) error {
	var ie *session.InterruptedError
	if errors.As(runErr, &ie) {
		return &cmdutil.InterruptedError{Signal: ie.Signal}
	}
	return runErr
}

// Finish prints a session's outcome: the JSON result with asJSON, else
// the text report; then the line saying where the result was written
// (unless saving it failed) and the command's error. A nil out means
// nothing started: runErr says why.
func Finish(f *cmdutil.Factory, out *session.Outcome, runErr error, asJSON bool, command string) error {
	if out == nil {
		return runErr
	}
	if err := Print(f, asJSON, out.Result, func() { runtext.Render(f.IO.Out, out.Result, f.IO.ColorEnabled()) }); err != nil {
		return err
	}
	var se *session.ErrSave
	if !errors.As(runErr, &se) {
		out.Announce(f.IO.ErrOut, command)
	}
	return ExitError(runErr)
}

// Print writes res to standard output as JSON with asJSON, else calls
// render to write the text report.
func Print(f *cmdutil.Factory, asJSON bool, res any, render func()) error {
	if asJSON {
		return f.WriteJSON(res)
	}
	render()
	return nil
}
