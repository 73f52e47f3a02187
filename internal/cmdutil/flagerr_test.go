package cmdutil

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
)

// TestFlagValueErrors: a numeric or duration flag given a value that does
// not parse is one line naming the flag, the value and the expected form,
// never Go's own text (strconv.ParseFloat, time: invalid duration).
func TestFlagValueErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"--heat-to", "hot"}, `--heat-to "hot": not a number (e.g. 80 or 72.5)`},
		{[]string{"--settle", "xyz"}, `--settle "xyz": not a duration (e.g. 30s, 5m or 1h30m)`},
		{[]string{"--settle=5"}, `--settle "5": not a duration (e.g. 30s, 5m or 1h30m)`},
		{[]string{"--samples", "many"}, `--samples "many": not a whole number (e.g. 5)`},
		{[]string{"--samples", "99999999999999999999"}, `--samples "99999999999999999999": not a whole number (e.g. 5)`},
		{[]string{"--port", "-1"}, `--port "-1": not a whole number of 0 or more (e.g. 5)`},
		{[]string{"--n", "x"}, `--n "x": not a whole number (e.g. 5)`},
		{[]string{"-n", "x"}, `--n "x": not a whole number (e.g. 5)`},
		{[]string{"--flag=maybe"}, `--flag "maybe": want true or false`},
	}
	for _, tt := range tests {
		cmd := &cobra.Command{Use: "x", RunE: func(*cobra.Command, []string) error { return nil }, SilenceErrors: true, SilenceUsage: true}
		cmd.SetFlagErrorFunc(FlagErrorFunc)
		cmd.SetOut(&bytes.Buffer{})
		cmd.SetErr(&bytes.Buffer{})
		fl := cmd.Flags()
		fl.Float64("heat-to", 0, "")
		fl.Duration("settle", time.Second, "")
		fl.Int("samples", 5, "")
		fl.Uint("port", 0, "")
		fl.Int64P("n", "n", 0, "")
		fl.Bool("flag", false, "")
		cmd.SetArgs(tt.args)
		err := cmd.Execute()
		if ExitCode(err) != 2 || err == nil || err.Error() != tt.want {
			t.Errorf("%v: %v (exit %d), want %q", tt.args, err, ExitCode(err), tt.want)
		}
		if err != nil && (strings.Contains(err.Error(), "strconv") || strings.Contains(err.Error(), "time:")) {
			t.Errorf("%v: Go's own text in %q", tt.args, err)
		}
	}
}
