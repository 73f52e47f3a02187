package cmdutil

import (
	"time"

	"boardbench/internal/iostreams"
)

// Status returns a measuring command's one status line on standard error,
// prefixed with "boardbench COMMAND"; linesOnPipe writes the plan's
// progress as plain lines when standard error is not a terminal.
func (f *Factory) Status(command string, linesOnPipe bool) *iostreams.Status {
	return f.IO.NewStatus(iostreams.StatusOptions{Prefix: "boardbench " + command, LinesOnPipe: linesOnPipe})
}

// NonNegative rejects a negative duration given to flag (e.g.
// --idle-timeout) as a usage error.
func NonNegative(flag string, d time.Duration) error {
	if d < 0 {
		return Usagef("%s %s: must not be negative", flag, d)
	}
	return nil
}

// Refusef returns the error of a command that refuses, before measuring,
// what cannot be measured here: one line, exit status 2, nothing written
// or stored.
func Refusef(format string, args ...any) error { return Usagef(format, args...) }
