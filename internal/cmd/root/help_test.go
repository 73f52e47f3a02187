package root

import (
	"strings"
	"testing"
	"unicode/utf8"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
	"boardbench/internal/textfmt"

	"github.com/spf13/cobra"
)

// TestHelpFitsWidth renders the --help of every command and checks that no
// line is wider than the text reports' width.
func TestHelpFitsWidth(t *testing.T) {
	var paths [][]string
	var walk func(c *cobra.Command, path []string)
	walk = func(c *cobra.Command, path []string) {
		paths = append(paths, path)
		for _, sub := range c.Commands() {
			walk(sub, append(append([]string{}, path...), sub.Name()))
		}
	}
	walk(NewCmd(cmdutil.NewFactory(func() *iostreams.IOStreams { ios, _, _ := iostreams.Test(); return ios }())), nil)
	if len(paths) < 10 {
		t.Fatalf("only %d commands found", len(paths))
	}
	for _, path := range paths {
		t.Run(strings.Join(append([]string{"boardbench"}, path...), " "), func(t *testing.T) {
			ios, stdout, _ := iostreams.Test()
			cmd := NewCmd(cmdutil.NewFactory(ios))
			cmd.SetArgs(append(append([]string{}, path...), "--help"))
			if err := cmd.Execute(); err != nil {
				t.Fatal(err)
			}
			out := stdout.String()
			if !strings.Contains(out, "Usage:") {
				t.Fatalf("no usage in:\n%s", out)
			}
			for _, l := range strings.Split(out, "\n") {
				if n := utf8.RuneCountInString(l); n > textfmt.MaxWidth {
					t.Errorf("line of %d columns (max %d): %q", n, textfmt.MaxWidth, l)
				}
			}
		})
	}
}

// TestCommandsRegisteredOnce checks that no command is added twice (cobra
// would list it twice in --help and run the first).
func TestCommandsRegisteredOnce(t *testing.T) {
	cmd := NewCmd(cmdutil.NewFactory(func() *iostreams.IOStreams { ios, _, _ := iostreams.Test(); return ios }()))
	seen := map[string]int{}
	for _, sub := range cmd.Commands() {
		seen[sub.Name()]++
	}
	for name, n := range seen {
		if n != 1 {
			t.Errorf("command %q registered %d times", name, n)
		}
	}
	for _, want := range []string{"storage", "writes", "net", "review", "kernel", "sweep", "thermal", "results", "compare", "import", "serve"} {
		if seen[want] == 0 {
			t.Errorf("command %q not registered", want)
		}
	}
}
