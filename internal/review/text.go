package review

import (
	"fmt"
	"io"
	"strings"

	"boardbench/internal/textfmt"
)

// Render writes the text view of a review: the findings grouped by area,
// worst first, then the table of every setting read.
func Render(w io.Writer, r Report, color bool) {
	tw := textfmt.New(w, color)
	if len(r.Findings) == 0 {
		tw.Section("Findings")
		tw.Line("no setting holds this machine back (of those boardbench checks)")
	}
	for _, area := range Areas {
		var fs []Finding
		for _, f := range r.Findings {
			if f.Area == area {
				fs = append(fs, f)
			}
		}
		if len(fs) == 0 {
			continue
		}
		tw.Section(strings.ToUpper(area[:1]) + area[1:])
		for _, f := range fs {
			put := func(label, text string) {
				fmt.Fprintln(w, strings.TrimRight(textfmt.Indent(text, "  "+label, "            ", textfmt.MaxWidth), "\n"))
			}
			put("", fmt.Sprintf("[%s] %s: %s", f.Severity, f.ID, f.Title))
			for _, e := range f.Evidence {
				put("  read  ", e)
			}
			put("  fix   ", f.Advice)
			if f.Persist != "" {
				put("  keep  ", f.Persist)
			}
			if f.Cost != "" {
				put("  cost  ", f.Cost)
			}
		}
	}
	tw.Section("Settings read")
	t := textfmt.NewTable("area", "setting", "value", "finding")
	for _, s := range r.Settings {
		v := s.Value
		if len(v) > 40 {
			v = v[:37] + "..."
		}
		fnd := strings.Join(s.Findings, ",")
		if fnd == "" {
			fnd = "ok"
		}
		t.Row(s.Area, s.Path, v, fnd)
	}
	tw.Table(t)
}

// RenderChanges writes what --apply changed on root ("/" for the live
// system), one line per change, and where the previous values are.
func RenderChanges(w io.Writer, changes []Change, statePath, root string) {
	if len(changes) == 0 {
		fmt.Fprintln(w, "nothing to apply: no runtime setting of the safe subset needs a change")
		return
	}
	for _, c := range changes {
		if c.Error != "" {
			fmt.Fprintf(w, "could not set %s to %s: %s\n", c.Path, c.To, c.Error)
			continue
		}
		fmt.Fprintf(w, "set %s: %s → %s (%s)\n", c.Path, oneLine(c.From), c.To, c.Finding)
	}
	if statePath != "" {
		rootArg := ""
		if root != "" && root != "/" {
			rootArg = " --root " + root
		}
		fmt.Fprintf(w, "previous values saved in %s; boardbench review --restore%s or boardbench restore%s puts them back\n", statePath, rootArg, rootArg)
	}
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
