package results

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/store"
)

// TestAmbiguousAndUnknownIDs checks that every subcommand taking an id
// passes on the store's word: a short id that several ids start with is
// said to be so (not "no result"), an unknown one is "no result"; both
// are bad input (exit 2). The id rule is store.ValidIDRef's, the one of
// report and compare: either case, hexadecimal digits only.
func TestAmbiguousAndUnknownIDs(t *testing.T) {
	path := setup(t)
	st, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	doc, _ := json.Marshal(testResult("aaab0000000000000000000000000003", "Orange Pi 5 Plus", 15500, time.Now()))
	if _, _, err := st.Put(context.Background(), doc); err != nil {
		t.Fatal(err)
	}
	st.Close()
	for _, args := range [][]string{
		{"show", "ID"}, {"export", "ID", "--format", "json"}, {"tag", "ID", "x"}, {"rm", "--yes", "ID"},
	} {
		for _, tc := range []struct{ id, want, notWant string }{
			{"aaa", `"aaa" is the start of 2 result ids`, "no result"},
			{"cccc", "no result cccc in the store", "start of"},
			{"AAA", `"aaa" is the start of 2 result ids`, "no result"},
			{"a/b", `"a/b" is not a result id`, "start of"},
		} {
			a := make([]string, len(args))
			for i, s := range args {
				a[i] = strings.ReplaceAll(s, "ID", tc.id)
			}
			_, _, err := run(t, path, false, "", a...)
			if cmdutil.ExitCode(err) != 2 || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), tc.notWant) {
				t.Errorf("results %s: %v (exit %d), want exit 2 and %q", strings.Join(a, " "), err, cmdutil.ExitCode(err), tc.want)
			}
		}
	}
	if out, _, _ := run(t, path, false, "", "list", "--json"); strings.Count(out, `"id"`) != 3 {
		t.Errorf("an ambiguous rm removed something:\n%s", out)
	}
}
