package root

import (
	"regexp"
	"strings"
	"testing"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// argName is what a backquoted word of a flag's usage must look like:
// pflag shows the first backquoted word as the flag's argument
// (--output FILE), so it must be a placeholder, never prose.
var argName = regexp.MustCompile(`^[A-Z][A-Z0-9_:]*(\[,[A-Z0-9_:]+\.\.\.\])?$`)

// TestFlagUsageArgumentNames walks every flag of every command: a
// backquoted word names the argument (an upper-case placeholder), a
// boolean flag has none, and no further backquotes show up in the help.
func TestFlagUsageArgumentNames(t *testing.T) {
	ios, _, _ := iostreams.Test()
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		check := func(fl *pflag.Flag) {
			if !strings.Contains(fl.Usage, "`") {
				return
			}
			first := strings.Index(fl.Usage, "`")
			rest := fl.Usage[first+1:]
			end := strings.Index(rest, "`")
			where := c.CommandPath() + " --" + fl.Name
			switch {
			case end < 0:
				t.Errorf("%s: unpaired backquote in %q", where, fl.Usage)
			case fl.Value.Type() == "bool":
				t.Errorf("%s: a boolean flag shows %q as its argument", where, rest[:end])
			case !argName.MatchString(rest[:end]):
				t.Errorf("%s: argument shown as %q, not a placeholder (usage %q)", where, rest[:end], fl.Usage)
			case strings.Contains(rest[end+1:], "`"):
				t.Errorf("%s: backquotes after the argument name show up literally: %q", where, fl.Usage)
			}
		}
		c.LocalFlags().VisitAll(check)
		c.PersistentFlags().VisitAll(check)
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(NewCmd(cmdutil.NewFactory(ios)))
}
