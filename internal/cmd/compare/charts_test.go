//go:build !board

package compare

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
)

// TestCharts: compare --charts DIR writes the headline figures as bars
// into DIR, one file per figure, and lists them on stderr.
func TestCharts(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")
	os.WriteFile(a, doc(t, "aaaa0000000000000000000000000001", "6.1.0", 16000), 0o644)
	os.WriteFile(b, doc(t, "bbbb0000000000000000000000000002", "6.8.0", 14000), 0o644)
	charts := filepath.Join(dir, "charts")
	ios, out, errOut := iostreams.Test()
	cmd := NewCmd(&cmdutil.Factory{IO: ios, Store: cmdutil.StoreOptions{Off: true}})
	cmd.SetArgs([]string{a, b, "--charts", charts})
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	if err := cmd.ExecuteContext(context.Background()); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(filepath.Join(charts, "compare-sevenzip-multi-mips.svg"))
	if err != nil {
		t.Fatalf("%v; stderr:\n%s", err, errOut.String())
	}
	for _, want := range []string{`data-value="16000"`, `data-value="14000"`, "a.json", "b.json"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("chart lacks %q", want)
		}
	}
	if !strings.Contains(errOut.String(), "compare-sevenzip-multi-mips.svg") || !strings.Contains(out.String(), "Conditions that differ") {
		t.Errorf("stdout:\n%s\nstderr:\n%s", out.String(), errOut.String())
	}
}
