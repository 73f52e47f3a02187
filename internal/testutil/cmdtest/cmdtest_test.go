package cmdtest

import (
	"fmt"
	"testing"

	"github.com/spf13/cobra"

	"boardbench/internal/cmdutil"
)

// TestExecute checks that Execute hands the arguments to the command and
// returns its error with its exit status.
func TestExecute(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		runErr   error
		wantArgs string
		wantExit int
	}{
		{"ok", []string{"a", "b"}, nil, "[a b]", 0},
		{"refused", []string{"x"}, cmdutil.Refusef("no"), "[x]", 2},
		{"failed", nil, fmt.Errorf("broken"), "[]", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got string
			cmd := &cobra.Command{Use: "x", RunE: func(_ *cobra.Command, args []string) error {
				got = fmt.Sprint(args)
				return tt.runErr
			}}
			err := Execute(cmd, tt.args...)
			if got != tt.wantArgs || cmdutil.ExitCode(err) != tt.wantExit {
				t.Errorf("args %s, exit %d (%v); want %s, exit %d", got, cmdutil.ExitCode(err), err, tt.wantArgs, tt.wantExit)
			}
		})
	}
}

// TestClockRefusal checks the refusal the live machine must give: for a
// user always one, for root one only where there are no clocks to pin.
func TestClockRefusal(t *testing.T) {
	user := ClockRefusal(t, 600, 1000)
	if user != "no cpufreq here" && user != "needs root" {
		t.Errorf("user: %q", user)
	}
	root := ClockRefusal(t, 600, 0)
	if user == "no cpufreq here" && root != user || user == "needs root" && root != "" {
		t.Errorf("root: %q (user: %q)", root, user)
	}
}

// TestRun checks what Run hands back: the command's output, its error
// added to standard error, the exit status, and the Factory as setup
// left it.
func TestRun(t *testing.T) {
	tests := []struct {
		name       string
		setup      func(*cmdutil.Factory)
		runErr     error
		wantOut    string
		wantErrOut string
		wantExit   int
	}{
		{"ok", nil, nil, "store \n", "", 0},
		{"store", Store("/tmp/x.db"), nil, "store /tmp/x.db\n", "", 0},
		{"refused", Store("s"), cmdutil.Refusef("no such result"), "store s\n", "no such result\n", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			newCmd := func(f *cmdutil.Factory) *cobra.Command {
				return &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error {
					fmt.Fprintf(f.IO.Out, "store %s\n", f.Store.Spec)
					return tt.runErr
				}}
			}
			out, errOut, exit := Run(t, newCmd, tt.setup)
			if out != tt.wantOut || errOut != tt.wantErrOut || exit != tt.wantExit {
				t.Errorf("Run = %q, %q, %d; want %q, %q, %d", out, errOut, exit, tt.wantOut, tt.wantErrOut, tt.wantExit)
			}
		})
	}
}
