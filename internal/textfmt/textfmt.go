// Package textfmt renders the building blocks of boardbench's text reports:
// section headings, aligned key/value lists and aligned tables.
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

// Section writes a heading, separated from the previous block by a blank line.
func (w *Writer) Section(title string) {
	if w.started {
		fmt.Fprintln(w.W)
	}
	w.started = true
	if w.Color {
		fmt.Fprintf(w.W, "\x1b[1m%s\x1b[0m\n", title)
	} else {
		fmt.Fprintln(w.W, title)
	}
}

// Line writes one line of free text, indented by two spaces.
func (w *Writer) Line(format string, args ...any) {
	fmt.Fprintf(w.W, "  "+format+"\n", args...)
}

// KV writes aligned "key: value" pairs, indented by two spaces. Pairs with an
// empty value are written with "unknown".
func (w *Writer) KV(pairs ...[2]string) {
	width := 0
	for _, p := range pairs {
		if n := utf8.RuneCountInString(p[0]); n > width {
			width = n
		}
	}
	for _, p := range pairs {
		v := p[1]
		if v == "" {
			v = "unknown"
		}
		fmt.Fprintf(w.W, "  %s:%s %s\n", p[0], strings.Repeat(" ", width-utf8.RuneCountInString(p[0])), v)
	}
}

// Table is a set of rows under headers, rendered with aligned columns.
type Table struct {
	Headers []string
	// RightAlign marks columns (by index) that hold numbers.
	RightAlign map[int]bool
	rows       [][]string
}

// NewTable returns a table with the given headers.
func NewTable(headers ...string) *Table { return &Table{Headers: headers, RightAlign: map[int]bool{}} }

// Row adds a row; missing cells are empty, extra cells are kept.
func (t *Table) Row(cells ...string) { t.rows = append(t.rows, cells) }

// Len returns the number of rows.
func (t *Table) Len() int { return len(t.rows) }

// Write renders the table, indented by two spaces.
func (t *Table) Write(w io.Writer) {
	ncol := len(t.Headers)
	for _, r := range t.rows {
		if len(r) > ncol {
			ncol = len(r)
		}
	}
	widths := make([]int, ncol)
	all := append([][]string{t.Headers}, t.rows...)
	for _, r := range all {
		for i, c := range r {
			if n := utf8.RuneCountInString(c); n > widths[i] {
				widths[i] = n
			}
		}
	}
	for _, r := range all {
		var b strings.Builder
		b.WriteString("  ")
		for i := 0; i < ncol; i++ {
			c := ""
			if i < len(r) {
				c = r[i]
			}
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(c))
			if t.RightAlign[i] {
				b.WriteString(pad + c)
			} else if i == ncol-1 {
				b.WriteString(c)
			} else {
				b.WriteString(c + pad)
			}
			if i < ncol-1 {
				b.WriteString("  ")
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
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
