package cpu

import (
	"testing"

	"boardbench/internal/testutil/fixture"
)

// collectRoot runs Collect on a fixture root.
func collectRoot(t testing.TB, root string) Info {
	t.Helper()
	return Collect(fixture.Open(t, root))
}

// collectCPUInfo runs Collect on a root holding only proc/cpuinfo.
func collectCPUInfo(t testing.TB, content []byte) Info {
	t.Helper()
	return collectRoot(t, fixture.Root(t, map[string]string{"/proc/cpuinfo": string(content)}))
}
