package kernelfile

import "strings"

// VersionLine returns the first line of /proc/version ("Linux version
// 6.1.0-rpi7-rpi-v8 (debian-kernel@lists.debian.org) (gcc-12 ...) #1 SMP
// PREEMPT Debian 1:6.1.63-1+rpt1 (2023-11-24)"), without its newline.
func VersionLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// VersionRelease returns the kernel release of a /proc/version line (the
// third word after "Linux version"); "" when the line does not start so.
func VersionRelease(line string) string {
	if f := strings.Fields(line); len(f) >= 3 && f[0] == "Linux" && f[1] == "version" {
		return f[2]
	}
	return ""
}

// VersionCompiler returns the compiler named in a /proc/version line:
//
//	Linux version 6.1.0 (user@host) (gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld …) #1 SMP …
//
// gives "gcc-12 (Debian 12.2.0-14) 12.2.0". Older kernels write
// "(gcc version 7.3.0 (Ubuntu/Linaro 7.3.0-27ubuntu1~18.04))". It returns ""
// when the line has no such group.
func VersionCompiler(procVersion string) string {
	groups := topLevelParens(procVersion)
	for _, g := range groups {
		if strings.Contains(g, "@") && !strings.ContainsAny(g, " ") {
			continue // the builder, user@host
		}
		low := strings.ToLower(g)
		if !strings.Contains(low, "gcc") && !strings.Contains(low, "clang") {
			continue
		}
		if i := strings.Index(g, ", GNU ld"); i >= 0 {
			g = g[:i]
		} else if i := strings.Index(g, ", LLD"); i >= 0 {
			g = g[:i]
		}
		return strings.TrimSpace(g)
	}
	return ""
}

// topLevelParens returns the contents of the outermost balanced parentheses
// of s, in order. Unbalanced text is ignored.
func topLevelParens(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			if depth == 0 {
				start = i + 1
			}
			depth++
		case ')':
			if depth == 0 {
				continue
			}
			depth--
			if depth == 0 {
				out = append(out, s[start:i])
			}
		}
	}
	return out
}
