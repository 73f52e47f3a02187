package osinfo

import (
	"context"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/note"
)

// Compiler is one C compiler and whether it is installed.
type Compiler struct {
	// Name is the command, "gcc" or "clang".
	Name string `json:"name"`
	// Installed reports whether the command is on PATH (or recorded).
	Installed bool `json:"installed"`
	// Version is the first line of `NAME --version`, e.g.
	// "gcc (Debian 12.2.0-14) 12.2.0"; "" when not installed or unknown.
	Version string `json:"version"`
	// Target is `NAME -dumpmachine`, e.g. "aarch64-linux-gnu"; "" when
	// unknown.
	Target string `json:"target"`
}

// compilerNames are the compilers boardbench looks for, in report order.
var compilerNames = []string{"gcc", "clang"}

func collectCompilers(h *host.Host, notes *note.List) []Compiler {
	out := make([]Compiler, 0, len(compilerNames))
	ctx := context.Background()
	for _, name := range compilerNames {
		c := Compiler{Name: name}
		if !h.HasCommand(name) {
			out = append(out, c)
			continue
		}
		c.Installed = true
		if b, err := h.Run(ctx, name, "--version"); err == nil {
			c.Version = firstLine(string(b))
		} else {
			notes.Add(name+" --version", err.Error())
		}
		if b, err := h.Run(ctx, name, "-dumpmachine"); err == nil {
			c.Target = firstLine(string(b))
		}
		out = append(out, c)
	}
	return out
}

func firstLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return printable(s)
}
