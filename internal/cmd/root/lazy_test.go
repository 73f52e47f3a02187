package root

import (
	"slices"
	"strings"
	"testing"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
)

// names returns the names of the subcommands NewCmdFor builds for args,
// without cobra's own help and completion commands.
func names(t *testing.T, args []string) []string {
	t.Helper()
	ios, _, _ := iostreams.Test()
	var got []string
	for _, c := range NewCmdFor(cmdutil.NewFactory(ios), args).Commands() {
		got = append(got, c.Name())
	}
	return got
}

// allNames is every subcommand's name, sorted as cobra lists them.
func allNames() []string {
	var all []string
	for _, s := range subcommands {
		all = append(all, s.name)
	}
	for _, s := range labCommands {
		all = append(all, s.name)
	}
	slices.Sort(all)
	return all
}

// TestNewCmdForBuildsOnlyTheCommandAsked checks which command lines build
// one subcommand and which the whole tree.
func TestNewCmdForBuildsOnlyTheCommandAsked(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string // nil: the whole tree
	}{
		{"info", []string{"info"}, []string{"info"}},
		{"version with a flag", []string{"version", "--json"}, []string{"version"}},
		{"help of a command", []string{"info", "--help"}, []string{"info"}},
		{"command with subcommands", []string{"results", "list"}, []string{"results"}},
		{"lab command", []string{"serve"}, []string{"serve"}},
		{"lab tokens", []string{"lab", "--help"}, []string{"lab"}},
		{"last in the table", []string{"reference"}, []string{"reference"}},
		{"no arguments", nil, nil},
		{"empty arguments", []string{}, nil},
		{"root help", []string{"--help"}, nil},
		{"root -h", []string{"-h"}, nil},
		{"root version flag", []string{"--version"}, nil},
		{"help command", []string{"help", "info"}, nil},
		{"help alone", []string{"help"}, nil},
		{"completion", []string{"completion", "bash"}, nil},
		{"shell completion request", []string{"__complete", "in"}, nil},
		{"shell completion without descriptions", []string{"__completeNoDesc", "info", ""}, nil},
		{"unknown command", []string{"infoo"}, nil},
		{"flag before the command", []string{"--store", "x.db", "info"}, nil},
		{"empty word", []string{""}, nil},
		{"case differs", []string{"Info"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			if want == nil {
				want = allNames()
			}
			if got := names(t, tt.args); !slices.Equal(got, want) {
				t.Errorf("NewCmdFor(%q) built %q, want %q", tt.args, got, want)
			}
		})
	}
}

// TestSubcommandTable checks that the table names every command of the
// full tree once, under the name the command itself has, so that every
// command can be built alone.
func TestSubcommandTable(t *testing.T) {
	ios, _, _ := iostreams.Test()
	f := cmdutil.NewFactory(ios)
	seen := map[string]bool{}
	for _, name := range allNames() {
		if seen[name] {
			t.Errorf("%q twice in the table", name)
		}
		seen[name] = true
		if sub := lookup(name); sub == nil {
			t.Errorf("lookup(%q) = nil", name)
		} else if c := sub(f); c.Name() != name || len(c.Aliases) > 0 {
			t.Errorf("the table's %q builds %q (aliases %q): the table would not find it by what is typed", name, c.Name(), c.Aliases)
		}
	}
	if len(seen) < 20 {
		t.Errorf("only %d commands in the table", len(seen))
	}
}

// TestNewCmdForSameBehaviour runs command lines on the whole tree and on
// the tree NewCmdFor builds for them: output, errors and exit status must
// be the same.
func TestNewCmdForSameBehaviour(t *testing.T) {
	t.Setenv("BOARDBENCH_STORE", t.TempDir()+"/results.db")
	lines := [][]string{
		{"version"},
		{"version", "--json"},
		{"version", "extra"},
		{"info", "--help"},
		{"info", "--no-such-flag"},
		{"results", "--help"},
		{"results", "lisst"},
		{"results", "list", "--help"},
		{"kernel", "-h"},
		{"serve", "--help"},
		{"lab", "--help"},
		{"run", "--quick", "--extensive", "--help"},
		{"report"},
		{"compare", "--help"},
	}
	for _, args := range lines {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			exec := func(full bool) (string, string, string, int) {
				ios, stdout, stderr := iostreams.Test()
				f := cmdutil.NewFactory(ios)
				cmd := NewCmdFor(f, args)
				if full {
					cmd = NewCmd(f)
				}
				if full == (len(cmd.Commands()) == 1) {
					t.Fatalf("full=%v built %d commands", full, len(cmd.Commands()))
				}
				cmd.SetArgs(args)
				err := cmd.Execute()
				msg := ""
				if err != nil {
					msg = err.Error()
				}
				return stdout.String(), stderr.String(), msg, cmdutil.ExitCode(err)
			}
			o1, e1, m1, c1 := exec(true)
			o2, e2, m2, c2 := exec(false)
			if o1 != o2 || e1 != e2 || m1 != m2 || c1 != c2 {
				t.Errorf("whole tree: out %q err %q error %q exit %d\none command: out %q err %q error %q exit %d", o1, e1, m1, c1, o2, e2, m2, c2)
			}
			if o1 == "" && m1 == "" {
				t.Errorf("no output and no error: the comparison tests nothing")
			}
		})
	}
}
