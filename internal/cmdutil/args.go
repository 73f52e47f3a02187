package cmdutil

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// The argument validators below wrap cobra's own so that a wrong number of
// arguments is a UsageError (exit status 2) wherever the command runs,
// without anyone matching cobra's message strings.

// NoArgs accepts no positional arguments.
func NoArgs(cmd *cobra.Command, args []string) error {
	return asUsage(cobra.NoArgs(cmd, args))
}

// ExactArgs accepts exactly n positional arguments.
func ExactArgs(n int) cobra.PositionalArgs {
	return wrapArgs(cobra.ExactArgs(n))
}

// MinimumArgs accepts n or more positional arguments.
func MinimumArgs(n int) cobra.PositionalArgs {
	return wrapArgs(cobra.MinimumNArgs(n))
}

// MaximumArgs accepts at most n positional arguments.
func MaximumArgs(n int) cobra.PositionalArgs {
	return wrapArgs(cobra.MaximumNArgs(n))
}

// RangeArgs accepts between lo and hi positional arguments.
func RangeArgs(lo, hi int) cobra.PositionalArgs {
	return wrapArgs(cobra.RangeArgs(lo, hi))
}

// wrapArgs turns the errors of a cobra validator into UsageErrors.
func wrapArgs(v cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error { return asUsage(v(cmd, args)) }
}

// asUsage wraps a non-nil error in a UsageError.
func asUsage(err error) error {
	if err == nil {
		return nil
	}
	return &UsageError{Err: err}
}

// FlagErrorFunc is the flag error handler of every boardbench command: an
// unknown flag, a missing flag value or a value that does not parse is a
// UsageError. The root command sets it; cobra hands it down to every
// subcommand.
func FlagErrorFunc(_ *cobra.Command, err error) error { return asUsage(flagValueError(err)) }

// flagValueError rewrites a flag value that does not parse as one line
// naming the flag, the value and the form expected (`--settle "xyz": not
// a duration (e.g. 30s, 5m or 1h30m)`), instead of Go's parser text
// (`strconv.ParseFloat: parsing "hot": invalid syntax`, `time: invalid
// duration`). Other errors are returned as they are.
func flagValueError(err error) error {
	var ive *pflag.InvalidValueError
	if !errors.As(err, &ive) || ive.GetFlag() == nil {
		return err
	}
	fl := ive.GetFlag()
	var want string
	switch t := fl.Value.Type(); t {
	case "float32", "float64":
		want = "not a number (e.g. 80 or 72.5)"
	case "duration":
		want = "not a duration (e.g. 30s, 5m or 1h30m)"
	case "int", "int8", "int16", "int32", "int64", "count":
		want = "not a whole number (e.g. 5)"
	case "uint", "uint8", "uint16", "uint32", "uint64":
		want = "not a whole number of 0 or more (e.g. 5)"
	case "bool":
		want = "want true or false"
	default:
		if cause := errors.Unwrap(ive); cause != nil && !strings.Contains(cause.Error(), "strconv.") && !strings.Contains(cause.Error(), "time: ") {
			want = cause.Error()
		} else {
			want = "not a valid " + t
		}
	}
	return fmt.Errorf("--%s %q: %s", fl.Name, ive.GetValue(), want)
}

// UnknownCommand is the Args validator of a command that only groups
// subcommands: any positional argument left over is a command name that
// does not exist, a UsageError naming the closest existing commands.
func UnknownCommand(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	msg := fmt.Sprintf("unknown command %q for %q", args[0], cmd.CommandPath())
	if cmd.SuggestionsMinimumDistance <= 0 {
		cmd.SuggestionsMinimumDistance = 2 // cobra's own default
	}
	if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
		msg += " (did you mean " + strings.Join(s, " or ") + "?)"
	} else {
		msg += fmt.Sprintf(" (see %s --help)", cmd.CommandPath())
	}
	return Usagef("%s", msg)
}

// ValidateFlags runs cobra's required-flag and flag-group checks on cmd and
// reports a failure as a UsageError. The root command calls it before any
// subcommand runs (cobra's own later check then finds nothing left).
func ValidateFlags(cmd *cobra.Command) error {
	if err := cmd.ValidateRequiredFlags(); err != nil {
		return asUsage(err)
	}
	return asUsage(cmd.ValidateFlagGroups())
}

// NewHelpCmd returns a `help [command]` command that, unlike cobra's
// default, refuses an unknown topic with a UsageError instead of printing
// the top-level help and exiting 0. Install it with root.SetHelpCommand.
func NewHelpCmd() *cobra.Command {
	find := func(c *cobra.Command, args []string) (*cobra.Command, error) {
		target, rest, err := c.Root().Find(args)
		if err != nil || target == nil || len(rest) > 0 {
			return nil, Usagef("unknown help topic %q (see %s --help)", strings.Join(args, " "), c.Root().Name())
		}
		return target, nil
	}
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command",
		Long:  "Help provides help for any command in the application.",
		Args: func(c *cobra.Command, args []string) error {
			_, err := find(c, args)
			return err
		},
		ValidArgsFunction: func(c *cobra.Command, args []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			target, err := find(c, args)
			if err != nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var names []cobra.Completion
			for _, sub := range target.Commands() {
				if sub.IsAvailableCommand() {
					names = append(names, sub.Name())
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			target, err := find(c, args)
			if err != nil {
				return err
			}
			return target.Help()
		},
	}
}
