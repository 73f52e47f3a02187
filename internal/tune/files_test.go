package tune

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/inventory/netif"
)

// fakeEthtool keeps one interface's coalescing in memory.
type fakeEthtool struct {
	netif.Ethtool
	c netif.Coalesce
}

func (f *fakeEthtool) Coalesce(string) (*netif.Coalesce, error) { c := f.c; return &c, nil }
func (f *fakeEthtool) SetCoalesce(_ string, c netif.Coalesce) error {
	f.c = c
	return nil
}

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, v := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestGuardSetFileAndCoalesce(t *testing.T) {
	const rps = "/sys/class/net/eth0/queues/rx-0/rps_cpus"
	const aff = "/proc/irq/39/smp_affinity"
	root := writeTree(t, map[string]string{rps: "0\n", aff: "f\n"})
	h, err := host.New(root)
	if err != nil {
		t.Fatal(err)
	}
	eth := &fakeEthtool{c: netif.Coalesce{RxUsecs: 0, RxFrames: 1}}
	stateDir := t.TempDir()
	g, _, err := NewGuard(context.Background(), h, WithFilesOnly(), WithStateDir(stateDir), WithEthtool(eth))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := g.SetFile(rps, "e"); err != nil {
		t.Fatal(err)
	}
	if err := g.SetFile(aff, "2"); err != nil {
		t.Fatal(err)
	}
	if err := g.SetFile(rps, "c"); err != nil { // a second change keeps the first previous value
		t.Fatal(err)
	}
	if err := g.SetCoalesce("eth0", netif.Coalesce{RxUsecs: 50, RxFrames: 32}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, rps)); string(b) != "c" {
		t.Errorf("rps_cpus = %q after the change", b)
	}
	sf, err := ReadStateFile(g.StatePath())
	if err != nil {
		t.Fatalf("state file: %v", err)
	}
	if len(sf.Saved.Files) != 2 || sf.Saved.Files[0].Previous != "0\n" || len(sf.Saved.Coalesce) != 1 || sf.Saved.Coalesce[0].Previous.RxFrames != 1 {
		t.Errorf("saved = %+v", sf.Saved)
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{rps: "0\n", aff: "f\n"} {
		if b, _ := os.ReadFile(filepath.Join(root, p)); string(b) != want {
			t.Errorf("%s = %q after restore, want %q", p, b, want)
		}
	}
	if eth.c != (netif.Coalesce{RxFrames: 1}) {
		t.Errorf("coalescing not restored: %+v", eth.c)
	}
	if g.StatePath() != "" {
		t.Error("state file kept after a complete restore")
	}
	if err := g.SetFile(rps, "1"); err != ErrRestored {
		t.Errorf("change after restore: %v", err)
	}
}

// A state file left by a killed process restores the files through
// RestoreStateFile (boardbench restore).
func TestRestoreStateFileFiles(t *testing.T) {
	const rps = "/sys/class/net/eth0/queues/rx-0/rps_cpus"
	root := writeTree(t, map[string]string{rps: "3\n"})
	h, _ := host.New(root)
	sf := StateFile{Version: StateFileVersion, Root: h.Root(), Path: filepath.Join(t.TempDir(), "tune-1.json"),
		Saved: State{Files: []FileState{{Path: rps, Previous: "0\n"}}}}
	if err := writeStateFile(sf.Path, sf); err != nil {
		t.Fatal(err)
	}
	out, err := RestoreStateFile(h, sf, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 1 || out[0].Outcome != OutcomeRestored {
		t.Errorf("outcomes = %+v", out)
	}
	if b, _ := os.ReadFile(filepath.Join(root, rps)); string(b) != "0\n" {
		t.Errorf("rps_cpus = %q", b)
	}
}
