package osinfo

import (
	"boardbench/internal/lazyre"
	"context"
	"path"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/note"
)

// LibC is the C library of the userland.
type LibC struct {
	// Name is "glibc", "musl" or "uclibc"; "" when unknown.
	Name string `json:"name"`
	// Version is e.g. "2.36"; "" when unknown.
	Version string `json:"version"`
	// Source says how it was found: "ldd --version" or "loader names".
	Source string `json:"source"`
}

var versionRE = lazyre.Regexp(`\b(\d+\.\d+(?:\.\d+)?)\b`)

// ParseLddVersion names the C library from the first line of `ldd --version`
// (or its error text), e.g. "ldd (Debian GLIBC 2.36-9+deb12u4) 2.36" →
// glibc 2.36, "musl libc (aarch64)" → musl. ok is false when the text names
// no C library.
func ParseLddVersion(out string) (lc LibC, ok bool) {
	first := strings.TrimSpace(out)
	if i := strings.IndexByte(first, '\n'); i >= 0 {
		first = strings.TrimSpace(first[:i])
	}
	low := strings.ToLower(out)
	switch {
	case strings.Contains(low, "musl"):
		lc.Name = "musl"
		// musl prints "Version 1.2.4" on its second line.
		for _, line := range strings.Split(out, "\n") {
			if v, found := strings.CutPrefix(strings.TrimSpace(line), "Version "); found {
				lc.Version = strings.TrimSpace(v)
			}
		}
		return lc, true
	case strings.Contains(strings.ToLower(first), "glibc"), strings.Contains(first, "GNU libc"), strings.Contains(first, "EGLIBC"):
		lc.Name = "glibc"
		f := strings.Fields(first)
		if last := f[len(f)-1]; versionRE.MatchString(last) && versionRE.FindString(last) == last {
			lc.Version = last
		}
		return lc, true
	case strings.Contains(low, "uclibc"):
		lc.Name = "uclibc"
		return lc, true
	}
	return lc, false
}

var libcFileRE = lazyre.Regexp(`^libc-(\d+\.\d+(?:\.\d+)?)\.so$`)

func collectLibC(h *host.Host, notes *note.List) LibC {
	var lddErr string
	if h.HasCommand("ldd") {
		out, err := h.Run(context.Background(), "ldd", "--version")
		text := string(out)
		if err != nil {
			// musl's ldd prints to stderr and exits 1; the error carries
			// its first line.
			text += "\n" + err.Error()
			lddErr = err.Error()
		}
		if lc, ok := ParseLddVersion(text); ok {
			lc.Source = "ldd --version"
			if lc.Version == "" {
				notes.Add("C library version", "not printed by ldd --version")
			}
			return lc
		}
	}
	lc := LibC{Source: "loader names"}
	musl, _ := h.Glob("/lib/ld-musl-*.so.1")
	glibc := globAll(h, "/lib/ld-linux*.so*", "/lib64/ld-linux*.so*", "/lib/*-linux-gnu*/ld-linux*.so*")
	switch {
	case len(musl) > 0:
		lc.Name = "musl"
		notes.Add("C library version", "musl does not name its version in file names and ldd gave none")
	case len(glibc) > 0:
		lc.Name = "glibc"
		for _, p := range globAll(h, "/lib/libc-*.so", "/lib/*-linux-gnu*/libc-*.so", "/lib64/libc-*.so") {
			if m := libcFileRE.FindStringSubmatch(path.Base(p)); m != nil {
				lc.Version = m[1]
				break
			}
		}
		if lc.Version == "" {
			notes.Add("C library version", "ldd unavailable and the library file names carry no version")
		}
	default:
		reason := "no ldd and no known dynamic loader in /lib"
		if lddErr != "" {
			reason = "ldd --version failed (" + lddErr + ") and no known dynamic loader in /lib"
		}
		notes.Add("C library", reason)
		lc.Source = ""
	}
	return lc
}

// globAll returns the matches of every pattern, in order.
func globAll(h *host.Host, patterns ...string) []string {
	var out []string
	for _, p := range patterns {
		m, _ := h.Glob(p)
		out = append(out, m...)
	}
	return out
}
