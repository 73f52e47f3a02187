package cmdutil

import (
	"bytes"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// newTree returns a root with the root conventions and one subcommand "info"
// taking args, with a required flag --need on "need".
func newTree(args cobra.PositionalArgs) *cobra.Command {
	root := &cobra.Command{
		Use: "boardbench", Args: UnknownCommand,
		RunE:              func(cmd *cobra.Command, _ []string) error { return nil },
		PersistentPreRunE: func(cmd *cobra.Command, _ []string) error { return ValidateFlags(cmd) },
		SilenceErrors:     true, SilenceUsage: true,
	}
	root.SetFlagErrorFunc(FlagErrorFunc)
	root.SetOut(&bytes.Buffer{})
	root.SetErr(&bytes.Buffer{})
	sub := &cobra.Command{Use: "info", Args: args, RunE: func(*cobra.Command, []string) error { return nil }}
	sub.Flags().Int("count", 0, "")
	need := &cobra.Command{Use: "need", Args: NoArgs, RunE: func(*cobra.Command, []string) error { return nil }}
	need.Flags().String("file", "", "")
	_ = need.MarkFlagRequired("file")
	root.AddCommand(sub, need)
	return root
}

func TestUsageErrors(t *testing.T) {
	tests := []struct {
		name     string
		validate cobra.PositionalArgs
		args     []string
		wantCode int
		wantMsg  string
	}{
		{"no args ok", NoArgs, []string{"info"}, 0, ""},
		{"no args given one", NoArgs, []string{"info", "x"}, 2, `unknown command "x"`},
		{"exact ok", ExactArgs(1), []string{"info", "a"}, 0, ""},
		{"exact missing", ExactArgs(1), []string{"info"}, 2, "accepts 1 arg"},
		{"minimum", MinimumArgs(2), []string{"info", "a"}, 2, "at least 2"},
		{"maximum", MaximumArgs(1), []string{"info", "a", "b"}, 2, "at most 1"},
		{"range", RangeArgs(1, 2), []string{"info"}, 2, "between 1 and 2"},
		{"unknown command", NoArgs, []string{"inof"}, 2, `unknown command "inof" for "boardbench" (did you mean info?)`},
		{"unknown command, no suggestion", NoArgs, []string{"zzzzzz"}, 2, "see boardbench --help"},
		{"unknown flag", NoArgs, []string{"info", "--bogus"}, 2, "unknown flag: --bogus"},
		{"bad flag value", NoArgs, []string{"info", "--count", "many"}, 2, `--count "many": not a whole number`},
		{"missing flag value", NoArgs, []string{"info", "--count"}, 2, "needs an argument"},
		{"unknown root flag", NoArgs, []string{"--bogus"}, 2, "unknown flag"},
		{"required flag", NoArgs, []string{"need"}, 2, `required flag(s) "file" not set`},
		{"required flag given", NoArgs, []string{"need", "--file", "x"}, 0, ""},
	}
	for _, tt := range tests {
		root := newTree(tt.validate)
		root.SetArgs(tt.args)
		err := root.Execute()
		if got := ExitCode(err); got != tt.wantCode {
			t.Errorf("%s: exit %d (%v), want %d", tt.name, got, err, tt.wantCode)
			continue
		}
		if err != nil && !strings.Contains(err.Error(), tt.wantMsg) {
			t.Errorf("%s: %q lacks %q", tt.name, err, tt.wantMsg)
		}
	}
}
