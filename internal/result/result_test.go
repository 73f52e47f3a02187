package result

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"boardbench/internal/probe/membw"
)

func TestSaveLoadRoundTrip(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "r.json")
	r := New("run", nil, map[string]any{"force": true})
	ph := Phase{Name: "7zip-single", CPUs: []int{4}, Status: PhaseOK}
	if err := ph.SetFigures(map[string]float64{"tot_mips": 4321}); err != nil {
		t.Fatal(err)
	}
	r.Phases = append(r.Phases, ph)
	if err := Save(p, r); err != nil {
		t.Fatal(err)
	}
	got, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if len(got.Phases) == 1 {
		json.Compact(&compact, got.Phases[0].Figures)
	}
	if got.Status != StatusRunning || len(got.Phases) != 1 || compact.String() != `{"tot_mips":4321}` {
		t.Errorf("round trip: %+v", got)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("temporary files left behind: %v", ents)
	}
}

func TestLoadRejects(t *testing.T) {
	dir := t.TempDir()
	cases := map[string]string{
		"garbage":    "not json",
		"other json": `{"hello": 1}`,
		"future":     `{"schema_version": "9.0", "status": "complete"}`,
		"truncated":  `{"schema_version": "1.0", "status": "comp`,
	}
	for name, content := range cases {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte(content), 0o644)
		if _, err := Load(p); err == nil {
			t.Errorf("%s: want error", name)
		}
	}
	if _, err := Load(filepath.Join(dir, "missing")); err == nil {
		t.Error("missing file: want error")
	}
}

// TestMemBandwidthSlots checks that every bandwidth kernel has its own pair
// of fields and that an unknown name has none.
func TestMemBandwidthSlots(t *testing.T) {
	var b MemBandwidth
	seen := map[**float64]bool{}
	for _, k := range membw.AllKernels {
		mbs, sd := b.Slots(string(k))
		if mbs == nil || sd == nil || seen[mbs] || seen[sd] {
			t.Errorf("Slots(%q) = %v, %v: want fields of its own", k, mbs, sd)
		}
		seen[mbs], seen[sd] = true, true
	}
	if mbs, sd := b.Slots("bogus"); mbs != nil || sd != nil {
		t.Error("Slots of an unknown kernel must be nil")
	}
}
