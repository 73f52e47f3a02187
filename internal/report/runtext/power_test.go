package runtext

import (
	"bytes"
	"strings"
	"testing"

	"boardbench/internal/result"
)

// The seed's 1000 MHz all-core row: 3009 MIPS at 2330 mW at the wall.
func TestPowerInReport(t *testing.T) {
	r := result.New("run", nil, nil)
	r.Power = &result.Power{Source: "netio:http://10.0.0.6#1", Kind: "netio", Measures: "wall", Description: "Netio at http://10.0.0.6, output 1",
		Readings: 40, Missing: 2, Errors: []string{"timed out"}}
	mips, w, e := 3009.0, 2.33, 0.0194
	p := result.Phase{Name: result.PhaseSevenZipMulti, Title: "7-Zip multi-threaded", Status: result.PhaseOK}
	p.PowerW, p.EnergyWh, p.PowerBasis = &w, &e, "readings"
	if err := p.SetFigures(result.SevenZipFigures{Threads: 4, TotMIPS: &mips}); err != nil {
		t.Fatal(err)
	}
	r.Phases = append(r.Phases, p)
	var b bytes.Buffer
	Render(&b, r, false)
	out := b.String()
	for _, want := range []string{"2.330 W, 0.0194 Wh (readings)", "MIPS/W", "1291", "at the wall", "40 good, 2 missing (timed out)"} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}
