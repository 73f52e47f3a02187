package textfmt

import "strings"

// CSVText returns a CSV text cell that no spreadsheet evaluates: a cell
// starting with =, +, -, @, tab or carriage return (OWASP's list of
// formula triggers) gets a leading apostrophe, which spreadsheets show as
// a text marker. It is for text that came from results or logs (a board
// name, a tag); numeric cells that boardbench formats from numbers are
// written as they are, so that a negative figure stays a number.
func CSVText(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

// MarkdownText returns s, text that came from results or logs, safe for a
// markdown table cell someone will render: no link or image with a
// destination (`[text](javascript:…)`, `![x](http://…)`: the "](" is
// escaped as "]\(", so the text and the address stay readable), no HTML
// tag, comment or autolink (a "<" before a letter, "/", "!" or "?" is
// written "&lt;"), and no "|" that would split the cell (escaped "\|").
// Text without these comes back unchanged, so rows published as they
// were printed stay the same; an empty `[]()` (a published row's empty
// link cell) has no destination and is left alone.
func MarkdownText(s string) string {
	if !strings.ContainsAny(s, "](<|") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ']' && i+2 < len(s) && s[i+1] == '(' && s[i+2] != ')':
			b.WriteString(`]\(`)
			i++
		case c == '<' && i+1 < len(s) && isTagStart(s[i+1]):
			b.WriteString("&lt;")
		case c == '|' && (i == 0 || s[i-1] != '\\'):
			b.WriteString(`\|`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

func isTagStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '/' || c == '!' || c == '?'
}
