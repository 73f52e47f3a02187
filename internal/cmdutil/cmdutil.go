// Package cmdutil holds what every boardbench command shares: the streams,
// the --root and --json flags, argument checks, exit statuses, refusals,
// JSON output and the one-line error convention. It is a leaf of the
// command tree: it imports neither the session engine nor the results
// store nor the result schema (package cmdstore opens the store from the
// flags), so that a command such as version links little.
package cmdutil

import (
	"errors"
	"fmt"
	"os"

	"boardbench/internal/host"
	"boardbench/internal/iostreams"
	"boardbench/internal/safejson"

	"github.com/spf13/cobra"
)

// Factory carries what commands need from the outside world.
type Factory struct {
	IO *iostreams.IOStreams
	// NewHost opens the machine at root; tests may replace it.
	NewHost func(root string, opts ...host.Option) (*host.Host, error)
	// Store is the results store the root's --store/--no-store chose.
	Store StoreOptions
	// Keep saves a measuring command's finished result to that store; the
	// root command sets it (cmdstore.Keeper) once the flags are parsed,
	// and commands pass it to the engine in session.Config.Keep. Nil
	// saves nothing (--no-store, or a command run without the root
	// command, as in its tests).
	Keep Keeper
	// Euid returns the effective user id; nil means os.Geteuid. Tests
	// replace it to try the refusals of commands that need root.
	Euid func() int
}

// IsRoot reports whether boardbench runs with root privileges (Euid 0).
func (f *Factory) IsRoot() bool {
	if f.Euid != nil {
		return f.Euid() == 0
	}
	return os.Geteuid() == 0
}

// NewFactory returns a Factory on the given streams. A --root that cannot
// be opened is the user's input, so NewHost reports it as a UsageError.
func NewFactory(io *iostreams.IOStreams) *Factory {
	return &Factory{IO: io, NewHost: openRoot}
}

// openRoot opens the machine at root, turning a bad root into a UsageError.
func openRoot(root string, opts ...host.Option) (*host.Host, error) {
	h, err := host.New(root, opts...)
	if err != nil {
		return nil, &UsageError{Err: err}
	}
	return h, nil
}

// AddRootFlag adds --root DIR to a command that reads the system.
func AddRootFlag(cmd *cobra.Command, root *string) {
	cmd.Flags().StringVar(root, "root", "/", "read the machine from `DIR` instead of / (a fixture or an unpacked capture)")
}

// AddJSONFlag adds --json to a command.
func AddJSONFlag(cmd *cobra.Command, asJSON *bool) {
	cmd.Flags().BoolVar(asJSON, "json", false, "print machine-readable JSON instead of text")
}

// WriteJSON writes v as indented JSON followed by a newline. A float that
// is not a finite number is written as null (package safejson), never an
// error that would leave standard output empty.
func (f *Factory) WriteJSON(v any) error {
	return safejson.Encode(f.IO.Out, v, safejson.Options{Indent: "  ", NoEscapeHTML: true})
}

// UsageError marks an error caused by bad command-line input (exit status 2).
type UsageError struct{ Err error }

// Error returns the message of the wrapped error.
func (e *UsageError) Error() string { return e.Err.Error() }

// Unwrap returns the wrapped error.
func (e *UsageError) Unwrap() error { return e.Err }

// Usagef returns a UsageError.
func Usagef(format string, args ...any) error { return &UsageError{Err: fmt.Errorf(format, args...)} }

// The exit statuses of boardbench (README, "Exit status").
const (
	// ExitFailure: something failed.
	ExitFailure = 1
	// ExitUsage: bad input, or a refusal before measuring (nothing was
	// measured or stored).
	ExitUsage = 2
	// ExitNotValid: measured, but the result's verdict is not valid
	// (session.NotValidError).
	ExitNotValid = 3
	// ExitInterrupted: stopped by a signal (interrupt.Error).
	ExitInterrupted = 130
)

// ExitCode maps an error returned by a command to the process exit status:
// 0 for nil, the error's own code when it has an ExitCode method (the
// status of a command run under `monitor`, 3 for a measurement that is not
// valid, 130 for an interruption), 2 for usage errors and refusals, 1
// otherwise.
func ExitCode(err error) int {
	var ue *UsageError
	var ec interface{ ExitCode() int }
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ec):
		return ec.ExitCode()
	case errors.As(err, &ue):
		return ExitUsage
	default:
		return ExitFailure
	}
}

// AlreadyReported reports whether err says only what the command has
// already printed (e.g. a monitored command's exit status, shown in its
// summary), so that main exits with its status without printing it again.
// Such an error has a method AlreadyReported() bool that returns true.
func AlreadyReported(err error) bool {
	var r interface{ AlreadyReported() bool }
	return errors.As(err, &r) && r.AlreadyReported()
}
