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

func TestNetSummaryPower(t *testing.T) {
	f64 := func(v float64) *float64 { return &v }
	phase := func(name string, w *float64, f NetFigures) Phase {
		b, _ := json.Marshal(f)
		p := Phase{Name: name, Status: PhaseOK, Figures: b}
		p.PowerW = w
		return p
	}
	s := BuildNetSummary([]Phase{
		phase(PhaseNetTCPBidir, f64(2.5), NetFigures{TxMbitS: f64(300), RxMbitS: f64(200)}),
		phase(PhaseNetTCPForward, nil, NetFigures{TxMbitS: f64(338)}),
		phase(PhaseNetWatch, f64(4), NetFigures{Interfaces: []NetInterfaceRate{{Name: "eth0", RxMbitS: 900, TxMbitS: 20}, {Name: "eth1", RxMbitS: 20, TxMbitS: 900}}}),
	})
	p := s.NetSummary.Power
	if len(p) != 2 || p[0].Phase != PhaseNetTCPBidir || *p[0].MbitS != 500 || *p[0].MbitSPerW != 200 {
		t.Fatalf("power rows = %+v", p)
	}
	// Forwarded traffic is counted once: what entered the interfaces.
	if *p[1].MbitS != 920 || *p[1].MbitSPerW != 230 {
		t.Errorf("watch row = %+v", p[1])
	}
}
