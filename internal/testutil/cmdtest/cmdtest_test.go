package cmdtest

import (
	"fmt"
	"testing"

	"github.com/spf13/cobra"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
)

// TestExecuteAndRun checks that Execute and Run hand the arguments to
// the command and return its error's exit status, and what Run hands back
// besides: the command's output, its error added to standard error, and
// the Factory as setup left it.
func TestExecuteAndRun(t *testing.T) {
	for _, tt := range []struct {
		name, setupStore    string // "" : no setup
		args                []string
		runErr              error
		wantOut, wantErrOut string
		wantExit            int
	}{
		{"ok", "", []string{"a", "b"}, nil, "store  [a b]\n", "", 0},
		{"store", "/tmp/x.db", nil, nil, "store /tmp/x.db []\n", "", 0},
		{"refused", "s", []string{"x"}, cmdutil.Refusef("no such result"), "store s [x]\n", "no such result\n", 2},
		{"failed", "", nil, fmt.Errorf("broken"), "store  []\n", "broken\n", 1},
	} {
		t.Run(tt.name, func(t *testing.T) {
			newCmd := func(f *cmdutil.Factory) *cobra.Command {
				return &cobra.Command{Use: "x", RunE: func(_ *cobra.Command, args []string) error {
					fmt.Fprintf(f.IO.Out, "store %s %v\n", f.Store.Spec, args)
					return tt.runErr
				}}
			}
			var setup func(*cmdutil.Factory)
			if tt.setupStore != "" {
				setup = Store(tt.setupStore)
			}
			out, errOut, exit := Run(t, newCmd, setup, tt.args...)
			if out != tt.wantOut || errOut != tt.wantErrOut || exit != tt.wantExit {
				t.Errorf("Run = %q, %q, %d; want %q, %q, %d", out, errOut, exit, tt.wantOut, tt.wantErrOut, tt.wantExit)
			}
			ios, stdout, _ := iostreams.Test()
			f := cmdutil.NewFactory(ios)
			if setup != nil {
				setup(f)
			}
			err := Execute(newCmd(f), tt.args...)
			if got := stdout.String(); got != tt.wantOut || cmdutil.ExitCode(err) != tt.wantExit {
				t.Errorf("Execute: output %q, exit %d (%v); want %q, exit %d", got, cmdutil.ExitCode(err), err, tt.wantOut, tt.wantExit)
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
