package review

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

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
			put("", f.Heading())
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
	renderSettings(w, r.Settings)
}

// renderSettings writes the table of every setting read, by area, within
// textfmt.MaxWidth columns: the settings of one directory under that
// directory, shown once, each by its file name, value and findings ("ok"
// when none cites it). Long values are wrapped, never cut.
func renderSettings(w io.Writer, settings []Setting) {
	const nameIndent, gap = "      ", "  "
	for _, area := range Areas {
		var rows []Setting
		for _, s := range settings {
			if s.Area == area {
				rows = append(rows, s)
			}
		}
		if len(rows) == 0 {
			continue
		}
		// The settings of one directory together, directories in the order
		// first read; values derived from no one file (no directory) first.
		order := map[string]int{"": -1}
		for _, s := range rows {
			if d, _ := splitSettingPath(s.Path); !hasKey(order, d) {
				order[d] = len(order)
			}
		}
		slices.SortStableFunc(rows, func(a, b Setting) int {
			da, _ := splitSettingPath(a.Path)
			db, _ := splitSettingPath(b.Path)
			return order[da] - order[db]
		})
		fmt.Fprintln(w, "  "+area)
		nameW, valueLen, findW := 0, 0, 0
		for _, s := range rows {
			_, name := splitSettingPath(s.Path)
			nameW = max(nameW, utf8.RuneCountInString(name))
			valueLen = max(valueLen, utf8.RuneCountInString(s.Value))
			findW = max(findW, len(settingFindings(s)))
		}
		nameW = min(nameW, 28)
		valueW := max(textfmt.MaxWidth-len(nameIndent)-nameW-2*len(gap)-findW, 24)
		valueW = min(valueW, max(valueLen, 8))
		dir := ""
		for _, s := range rows {
			d, name := splitSettingPath(s.Path)
			if d != dir {
				fmt.Fprintln(w, "    "+d)
				dir = d
			}
			lines := textfmt.Wrap(s.Value, valueW)
			pad := nameW
			if n := utf8.RuneCountInString(name); n > nameW {
				// A long name gets a line of its own; the value starts under
				// the value column on the next line.
				fmt.Fprintln(w, nameIndent+name)
				name, pad = "", nameW
			}
			for i, l := range lines {
				fnd := ""
				if i == 0 {
					fnd = settingFindings(s)
				}
				line := fmt.Sprintf("%s%-*s%s%-*s%s%s", nameIndent, pad, name, gap, valueW, l, gap, fnd)
				fmt.Fprintln(w, strings.TrimRight(line, " "))
				name = ""
			}
		}
	}
}

func hasKey(m map[string]int, k string) bool {
	_, ok := m[k]
	return ok
}

// splitSettingPath splits a setting's path into the directory shown once
// (with its trailing slash) and the file name; a path without a directory
// is all name.
func splitSettingPath(p string) (dir, name string) {
	i := strings.LastIndexByte(p, '/')
	if i <= 0 {
		return "", p
	}
	return p[:i+1], p[i+1:]
}

// settingFindings is the findings column of a setting.
func settingFindings(s Setting) string {
	if len(s.Findings) == 0 {
		return "ok"
	}
	return strings.Join(s.Findings, ",")
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
