package main_test

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestMonitorStatusSaidOnce checks that a monitored command's status is
// printed once, in the summary, and that boardbench does not repeat it
// after the Verdict/Result block.
func TestMonitorStatusSaidOnce(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "r.json")
	r := runBinary(t, dir, "monitor", "--interval", "0.2", "-o", out, "--", "sh", "-c", "echo hi; exit 7")
	if r.code != 7 {
		t.Fatalf("exit %d, want 7\nstderr: %s", r.code, r.stderr)
	}
	for _, once := range []string{"exited with status 7", "Verdict: command failed (status 7)", "Result: "} {
		if n := strings.Count(r.stderr, once); n != 1 {
			t.Errorf("stderr has %q %d times, want once:\n%s", once, n, r.stderr)
		}
	}
	lines := strings.Split(strings.TrimSuffix(r.stderr, "\n"), "\n")
	if last := lines[len(lines)-1]; last != "Result: "+out+" (complete)" {
		t.Errorf("last line of stderr %q, want the result file", last)
	}
}
