package power

import "strings"

// splitLines splits text into lines without their line endings.
func splitLines(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == '\n' || r == '\r' })
}
