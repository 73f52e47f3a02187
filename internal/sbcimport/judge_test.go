package sbcimport

import (
	"strings"
	"testing"

	"boardbench/internal/finding"
	"boardbench/internal/result"
	"boardbench/internal/testutil/shareddata"
)

// TestImportVerdict: a log is judged by boardbench's rules on its own
// evidence. The problems its tool reports are warnings, so a log whose
// evidence is clean is valid (with warnings); a log whose monitor lines
// show other work during a benchmark is not valid, with a finding that
// says so; and no log whose tool judged it free of background activity is
// made not valid without such a finding.
func TestImportVerdict(t *testing.T) {
	byName := map[string]*result.Result{}
	logs := map[string]*Log{}
	for _, lg := range shareddata.Logs(t) {
		l, err := Parse([]byte(lg.Text))
		if err != nil {
			continue
		}
		byName[lg.Name], logs[lg.Name] = l.Result(lg.Name), l
	}
	cases := []struct {
		name, verdict, finding string
		valid                  bool
	}{
		// its tool says "Advertised vs. measured max CPU clockspeed: -1.3%"
		{"4IT1.txt", "valid with warnings", ValidationFindingID, true},
		// "Too much other background activity: 29% avg": tinymembench ran at 65% beyond one CPU
		{"4LtI.txt", "NOT VALID: disturbed_figures", "disturbed_figures", false},
		// "Too much other background activity: 2% avg, 22% max": below the threshold
		{"4rJj.txt", "valid with warnings", "background_activity", true},
	}
	for _, c := range cases {
		r, ok := byName[c.name]
		if !ok {
			t.Errorf("%s: not imported", c.name)
			continue
		}
		if r.Summary.Valid != c.valid || !strings.HasPrefix(r.Summary.Verdict, c.verdict) {
			t.Errorf("%s: verdict %v %q, want %v %q", c.name, r.Summary.Valid, r.Summary.Verdict, c.valid, c.verdict)
		}
		found := false
		for _, f := range r.Findings {
			found = found || f.ID == c.finding
		}
		if !found {
			t.Errorf("%s: no %s finding: %+v", c.name, c.finding, r.Findings)
		}
	}
	for name, r := range byName {
		if r.Summary.Valid || !cleanBackground(logs[name].Validation) {
			continue
		}
		why := false
		for _, f := range r.Findings {
			why = why || (f.Severity == finding.Invalidates && len(f.Evidence) > 0)
		}
		if !why {
			t.Errorf("%s: judged clean by its tool, not valid here without a finding that says why: %q", name, r.Summary.Verdict)
		}
	}
}
