package kernelfile

import "strings"

// unescapeOctal undoes the kernel's octal escapes of the paths in
// mountinfo, /proc/mounts and /proc/swaps (its mangle of space, tab,
// newline and backslash: "\040" is a space). Only a backslash followed by
// three octal digits of a byte value (\000 to \377) is an escape; anything
// else is kept as written.
func unescapeOctal(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && isOctalByte(s, i+1) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// isOctalByte reports whether s[i:i+3] are three octal digits of a value
// that fits a byte.
func isOctalByte(s string, i int) bool {
	if i+3 > len(s) || s[i] > '3' {
		return false
	}
	for _, c := range []byte(s[i : i+3]) {
		if c < '0' || c > '7' {
			return false
		}
	}
	return true
}
