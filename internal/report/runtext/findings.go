package runtext

import (
	"fmt"
	"sort"
	"strings"

	"boardbench/internal/finding"
	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// renderFindings writes the validation findings, worst first: severity,
// id and title, the evidence indented below, the advice and the phases
// concerned.
func renderFindings(w *textfmt.Writer, r *result.Result) {
	w.Section("Validation findings")
	if len(r.Findings) == 0 {
		switch {
		// An import's findings are the problems its log's validation
		// reports and what boardbench's rules find in its evidence.
		case r.Command == result.CommandImport && !r.Summary.Valid:
			w.Line("none recorded: the imported log was not validated")
		case r.Command == result.CommandImport:
			w.Line("none: neither the log's own validation nor boardbench's rules on its evidence find a problem")
		case r.Status == result.StatusComplete:
			w.Line("none: no throttling, swapping, background activity or other problem seen")
		default:
			w.Line("none recorded (the run did not finish; validation may not have run)")
		}
		return
	}
	fs := append([]finding.Finding(nil), r.Findings...)
	sort.SliceStable(fs, func(i, j int) bool { return fs[i].Severity.Rank() > fs[j].Severity.Rank() })
	for i, f := range fs {
		if i > 0 {
			fmt.Fprintln(w.W)
		}
		// The one style of findings in every text view (finding.TextLines).
		for _, l := range f.TextLines() {
			w.Line("%s%s", strings.Repeat(" ", l.Indent), l.Text)
		}
	}
}
