package tune

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/testutil/fixture"
)

// TestSetFileRecordsAndRestores changes an ASPM policy on a machine without
// cpufreq: the previous content is in the state file before the change,
// and Close writes back the selected word and removes the file.
func TestSetFileRecordsAndRestores(t *testing.T) {
	const aspm = "/sys/module/pcie_aspm/parameters/policy"
	root := fixture.Root(t, map[string]string{aspm: "default performance [powersave] powersupersave\n"})
	h := fixture.Open(t, root)
	dir := t.TempDir()
	if _, _, err := NewGuard(context.Background(), h, WithStateDir(dir)); err == nil {
		t.Fatal("NewGuard without AllowNoFrequency accepted a machine without frequency tunables")
	}
	g, _, err := NewGuard(context.Background(), h, WithStateDir(dir), AllowNoFrequency())
	if err != nil {
		t.Fatal(err)
	}
	if err := g.SetFile(aspm, "default"); err != nil {
		t.Fatal(err)
	}
	sf, err := ReadStateFile(g.StatePath())
	if err != nil {
		t.Fatal(err)
	}
	if len(sf.Saved.Files) != 1 || !strings.Contains(sf.Saved.Files[0].Previous, "[powersave]") {
		t.Errorf("state file holds %+v", sf.Saved.Files)
	}
	if b, _ := os.ReadFile(filepath.Join(root, aspm)); string(b) != "default" {
		t.Errorf("policy after SetFile = %q", b)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, aspm)); string(b) != "powersave" {
		t.Errorf("policy after Close = %q, want powersave", b)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "tune-*.json")); len(left) != 0 {
		t.Errorf("state files left: %v", left)
	}
}

func TestWritable(t *testing.T) {
	for in, want := range map[string]string{
		"default performance [powersave]\n": "powersave",
		"0\n":                               "0\n",
		"f\n":                               "f\n",
	} {
		if got := writable(in); got != want {
			t.Errorf("writable(%q) = %q, want %q", in, got, want)
		}
	}
}
