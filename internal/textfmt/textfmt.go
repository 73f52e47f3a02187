// Package textfmt renders the building blocks of boardbench's text reports:
// section headings, aligned key/value lists and aligned tables, all of them
// kept within MaxWidth columns, and the shared wording of counts.
package textfmt

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Writer writes report blocks to an io.Writer; Color enables bold headings.
type Writer struct {
	W     io.Writer
	Color bool
	// started is set once the first section has been written.
	started bool
}

// New returns a Writer on w.
func New(w io.Writer, color bool) *Writer { return &Writer{W: w, Color: color} }

// Section writes a heading, separated from the previous block by a blank
// line. A heading longer than MaxWidth is wrapped, continuation lines
// indented by two spaces.
func (w *Writer) Section(title string) {
	if w.started {
		fmt.Fprintln(w.W)
	}
	w.started = true
	for _, l := range strings.Split(strings.TrimSuffix(Indent(title, "", "  ", MaxWidth), "\n"), "\n") {
		if w.Color {
			fmt.Fprintf(w.W, "\x1b[1m%s\x1b[0m\n", l)
		} else {
			fmt.Fprintln(w.W, l)
		}
	}
}

// Line writes one line of free text, indented by two spaces. Text longer than
// MaxWidth is wrapped at spaces; continuation lines are indented two more
// spaces than the text's own indentation.
func (w *Writer) Line(format string, args ...any) {
	text := fmt.Sprintf(format, args...)
	for _, l := range strings.Split(text, "\n") {
		lead := len(l) - len(strings.TrimLeft(l, " "))
		fmt.Fprint(w.W, Indent(l, "  ", strings.Repeat(" ", lead+4), MaxWidth))
	}
}

// KV writes aligned "key: value" pairs, indented by two spaces. Pairs with an
// empty value are written with "unknown". Values longer than the room left on
// the line are wrapped under the start of the value.
func (w *Writer) KV(pairs ...[2]string) {
	width := 0
	for _, p := range pairs {
		if n := utf8.RuneCountInString(p[0]); n > width {
			width = n
		}
	}
	hang := strings.Repeat(" ", width+4)
	for _, p := range pairs {
		v := p[1]
		if v == "" {
			v = "unknown"
		}
		first := "  " + p[0] + ":" + strings.Repeat(" ", width-utf8.RuneCountInString(p[0])) + " "
		fmt.Fprint(w.W, Indent(v, first, hang, MaxWidth))
	}
}

// MaxWidth is the number of columns every text report fits in.
const MaxWidth = 100

// Wrap breaks s into lines of at most width runes, at spaces where it can;
// a word longer than width is cut. Runs of spaces inside a line are kept
// (they align figures); the spaces where a line is broken are dropped. An
// empty s gives one empty line.
func Wrap(s string, width int) []string {
	if width < 1 {
		width = 1
	}
	var lines []string
	for utf8.RuneCountInString(s) > width {
		r := []rune(s)
		cut := -1
		for i := width; i > 0; i-- {
			if r[i] == ' ' {
				cut = i
				break
			}
		}
		if cut <= 0 || strings.TrimSpace(string(r[:cut])) == "" {
			lines = append(lines, string(r[:width]))
			s = string(r[width:])
			continue
		}
		lines = append(lines, strings.TrimRight(string(r[:cut]), " "))
		s = strings.TrimLeft(string(r[cut:]), " ")
	}
	return append(lines, s)
}

// Indent wraps s to width columns counting the prefixes: the first line
// starts with first, every further line with rest. The result ends with a
// newline.
func Indent(s, first, rest string, width int) string {
	var b strings.Builder
	prefix := first
	for s != "" || prefix == first {
		room := width - utf8.RuneCountInString(prefix)
		if room < 20 {
			room = 20
		}
		lines := Wrap(s, room)
		b.WriteString(strings.TrimRight(prefix+lines[0], " "))
		b.WriteByte('\n')
		s = strings.TrimLeft(strings.Join(lines[1:], " "), " ")
		if len(lines) == 1 {
			break
		}
		prefix = rest
	}
	return b.String()
}

// Plural returns "1 phase", "3 phases": n and the singular noun, or the plural
// noun when n is not 1. The plural is singular+"s" unless given.
func Plural(n int, singular string, plural ...string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, singular)
	}
	if len(plural) > 0 {
		return fmt.Sprintf("%d %s", n, plural[0])
	}
	return fmt.Sprintf("%d %ss", n, singular)
}

// Spread formats a relative spread in percent the one way boardbench writes
// it, for example "±2.5%".
func Spread(pct float64) string { return fmt.Sprintf("±%.1f%%", pct) }

// Table is a set of rows under headers, rendered with aligned columns.
// Columns empty in every row are left out. A table wider than MaxWidth has
// its widest cells wrapped onto more lines, the columns in Wrap first.
type Table struct {
	Headers []string
	// RightAlign marks columns (by index) that hold numbers.
	RightAlign map[int]bool
	// Wrap marks columns (by index) whose cells may be wrapped when the
	// table is too wide; when none is marked, any column may be.
	Wrap map[int]bool
	// Headless leaves the header line out (the headers still count in the
	// widths): a later block of a long table streamed in blocks.
	Headless bool
	// Width is the number of columns the table fits in: 0 means
	// MaxWidth, a negative Width no limit.
	Width int
	// OneLine keeps every row on one line: a cell too long for its
	// column is shortened with an ellipsis ("…") instead of wrapped, and
	// columns are narrowed down to 6 runes whatever their words.
	OneLine bool
	rows    [][]string
}

// NewTable returns a table with the given headers.
func NewTable(headers ...string) *Table {
	return &Table{Headers: headers, RightAlign: map[int]bool{}, Wrap: map[int]bool{}}
}

// Row adds a row; missing cells are empty, extra cells are kept.
func (t *Table) Row(cells ...string) { t.rows = append(t.rows, cells) }

// Len returns the number of rows.
func (t *Table) Len() int { return len(t.rows) }

// columns returns the indexes of the columns that have a cell in some row.
func (t *Table) columns() []int {
	ncol := len(t.Headers)
	for _, r := range t.rows {
		ncol = max(ncol, len(r))
	}
	var keep []int
	for i := 0; i < ncol; i++ {
		for _, r := range t.rows {
			if i < len(r) && strings.TrimSpace(r[i]) != "" {
				keep = append(keep, i)
				break
			}
		}
	}
	if len(keep) == 0 {
		for i := 0; i < ncol; i++ {
			keep = append(keep, i)
		}
	}
	return keep
}

// Write renders the table, indented by two spaces.
func (t *Table) Write(w io.Writer) {
	cols := t.columns()
	cell := func(r []string, i int) string {
		if i < len(r) {
			return r[i]
		}
		return ""
	}
	all := append([][]string{t.Headers}, t.rows...)
	widths := make([]int, len(cols))
	for _, r := range all {
		for j, i := range cols {
			widths[j] = max(widths[j], utf8.RuneCountInString(cell(r, i)))
		}
	}
	words := make([]int, len(cols))
	for _, r := range all {
		for j, i := range cols {
			for _, f := range strings.Fields(cell(r, i)) {
				words[j] = max(words[j], utf8.RuneCountInString(f))
			}
		}
	}
	t.fit(cols, widths, words)
	if t.Headless {
		all = all[1:]
	}
	for _, r := range all {
		// Each cell wrapped to its column; the row takes as many lines as
		// its tallest cell.
		parts := make([][]string, len(cols))
		height := 1
		for j, i := range cols {
			if t.OneLine {
				parts[j] = []string{Shorten(cell(r, i), widths[j])}
				continue
			}
			parts[j] = Wrap(cell(r, i), widths[j])
			height = max(height, len(parts[j]))
		}
		for k := 0; k < height; k++ {
			var b strings.Builder
			b.WriteString("  ")
			for j, i := range cols {
				c := ""
				if k < len(parts[j]) {
					c = parts[j][k]
				}
				pad := strings.Repeat(" ", max(0, widths[j]-utf8.RuneCountInString(c)))
				switch {
				case t.RightAlign[i]:
					b.WriteString(pad + c)
				case j == len(cols)-1:
					b.WriteString(c)
				default:
					b.WriteString(c + pad)
				}
				if j < len(cols)-1 {
					b.WriteString("  ")
				}
			}
			fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
		}
	}
}

// fit narrows the widest wrappable column, one column at a time, until the
// table fits in its Width. A column narrows first down to its longest word
// (words[j]), marked columns before the others; only then are words cut,
// never below 6 runes. A OneLine table skips the step of words.
func (t *Table) fit(cols []int, widths, words []int) {
	limit := t.Width
	if limit == 0 {
		limit = MaxWidth
	}
	if limit < 0 {
		return
	}
	total := func() int {
		n := 2 + 2*(len(cols)-1)
		for _, w := range widths {
			n += w
		}
		return n
	}
	anyMarked := false
	for _, i := range cols {
		anyMarked = anyMarked || t.Wrap[i]
	}
	const minWidth = 6
	for over := total() - limit; over > 0; over = total() - limit {
		best, second := -1, 0
		floor := make([]int, len(cols))
		for pass := 0; pass < 3 && best < 0; pass++ {
			second = 0
			for j, i := range cols {
				floor[j] = minWidth
				if pass < 2 && !t.OneLine {
					floor[j] = max(minWidth, words[j])
				}
				if anyMarked && !t.Wrap[i] && pass == 0 || widths[j] <= floor[j] {
					continue
				}
				switch {
				case best < 0 || widths[j] > widths[best]:
					if best >= 0 {
						second = widths[best]
					}
					best = j
				case widths[j] > second:
					second = widths[j]
				}
			}
		}
		if best < 0 {
			return
		}
		// Narrow the widest column no further than the next widest, so
		// that wrapping is shared among the wide columns.
		target := max(floor[best], widths[best]-over, second)
		if target >= widths[best] {
			target = widths[best] - 1
		}
		widths[best] = target
	}
}

// Shorten returns s cut to at most n runes, its last rune an ellipsis
// ("…") when it was cut; s itself when it fits or n < 2.
func Shorten(s string, n int) string {
	if n < 2 || utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// Table writes a table through the Writer.
func (w *Writer) Table(t *Table) { t.Write(w.W) }

// OrUnknown returns s, or "unknown" when s is empty.
func OrUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}

// MHz formats a clock in MHz, or "unknown" for nil.
func MHz(v *float64) string {
	if v == nil {
		return "unknown"
	}
	return fmt.Sprintf("%.0f MHz", *v)
}

// Bytes formats a size with binary units (KiB, MiB, GiB, TiB).
func Bytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	v := float64(n) / float64(div)
	prec := 1
	if v >= 100 || v == float64(int64(v)) {
		prec = 0
	}
	return fmt.Sprintf("%.*f %ciB", prec, v, "KMGTP"[exp])
}

// goErrors maps the texts of Go's own errors, which mean nothing to a user,
// to sentences.
var goErrors = []struct{ text, sentence string }{
	{"context canceled", "stopped before it finished"},
	{"context deadline exceeded", "took longer than its time limit and was stopped"},
	{"signal: killed", "stopped by boardbench (killed)"},
	{"signal: terminated", "stopped (terminated)"},
	{"signal: interrupt", "stopped (interrupted)"},
}

// Reason returns a recorded reason or error text fit for a report: the
// texts of Go's errors ("context canceled", "signal: killed") become
// sentences, wherever they occur in s.
func Reason(s string) string {
	for _, e := range goErrors {
		s = strings.ReplaceAll(s, e.text, e.sentence)
	}
	return s
}
