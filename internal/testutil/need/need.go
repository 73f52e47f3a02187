// Package need lets a test say that a real tool it needs is missing: in CI
// (the CI environment variable set, as .ci/run does) that fails the test,
// because CI installs every tool and a skip would pass a test that did not
// run; on a developer's machine it skips with the reason.
package need

import (
	"os"
	"testing"
)

// Missing fails the test in CI and skips it elsewhere, with the message.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf("CI installs this tool, but: "+format, args...)
	}
	t.Skipf(format, args...)
}
