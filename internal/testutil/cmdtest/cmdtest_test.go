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
