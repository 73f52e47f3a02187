package tools

import (
	"boardbench/internal/lazyre"
	"context"
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
	return toolSpec{name: "fio", version: ParseFioVersion}.find(ctx, h)
}
