package finding

import "strings"

// Line is one line of a finding in a text view: its text and how many
// spaces it is indented under the finding's first line.
type Line struct {
	Indent int
	Text   string
}

// Heading is the first line of a finding in every text view (run, monitor,
// review, report): "[WARNING] id: title", the severity in capitals; a
// finding without a severity reads "[UNKNOWN SEVERITY]", an empty id or
// title "-".
func (f Finding) Heading() string {
	sev := strings.ToUpper(string(f.Severity))
	if sev == "" {
		sev = "UNKNOWN SEVERITY"
	}
	return "[" + sev + "] " + orDash(f.ID) + ": " + orDash(f.Title)
}

// TextLines are the lines every text view writes for a finding, in the one
// style of boardbench: the heading, each line of evidence indented by six,
// then "advice: …" and "phases: …" indented by four.
func (f Finding) TextLines() []Line {
	out := []Line{{0, f.Heading()}}
	for _, e := range f.Evidence {
		out = append(out, Line{6, e})
	}
	if f.Advice != "" {
		out = append(out, Line{4, "advice: " + f.Advice})
	}
	if len(f.Phases) > 0 {
		out = append(out, Line{4, "phases: " + strings.Join(f.Phases, ", ")})
	}
	return out
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
