package tools

import (
	"boardbench/internal/lazyre"
	"context"
	"fmt"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/note"
)

// FlavorFio is fio, the flexible I/O tester (`storage --fio`).
const FlavorFio Flavor = "fio"

// fioVersionRE matches "fio-3.33" and "fio-3.36-12-gabcdef".
var fioVersionRE = lazyre.Regexp(`^fio-(\d[^\s]*)$`)

// ParseFioVersion reads the output of `fio --version`. ok is false when no
// line names a fio version.
func ParseFioVersion(out string) (t Tool, ok bool) {
	for _, raw := range strings.Split(out, "\n") {
		line := strings.TrimSpace(raw)
		m := fioVersionRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		t.VersionLine, t.Version, t.Flavor = line, m[1], FlavorFio
		t.Comparable = true
		t.ComparableReason = "with direct I/O and one request at a time, fio's figures depend on the storage, not on the fio version"
		return t, true
	}
	return t, false
}

// FindFio returns the fio command with its version, or nil with a note
// saying why there is none.
func FindFio(ctx context.Context, h *host.Host) (*Tool, note.List) {
	var notes note.List
	if !h.HasCommand("fio") {
		notes.Add("fio", note.NotInstalled)
		return nil, notes
	}
	t, err := IdentifyFio(ctx, h, "fio")
	if err != nil {
		notes.Add("fio", err.Error())
		return nil, notes
	}
	return &t, notes
}

// IdentifyFio runs `fio --version` for the command name and parses it.
func IdentifyFio(ctx context.Context, h *host.Host, name string) (Tool, error) {
	p := commandPath(h, name)
	realPath, wrapper, notes := resolveWrappers(h, p)
	runPath := p
	if runPath == "" {
		runPath = name
	}
	out, err := h.Run(ctx, runPath, "--version")
	t, ok := ParseFioVersion(string(out))
	if !ok {
		if err != nil {
			return Tool{Name: name, Path: p}, fmt.Errorf("running it failed: %v", err)
		}
		return Tool{Name: name, Path: p}, fmt.Errorf("%s: no version line in `fio --version`", note.Malformed)
	}
	t.Name, t.Path, t.RealPath, t.Wrapper, t.Notes = name, p, realPath, wrapper, notes
	return t, nil
}
