package result

import (
	"bytes"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSaveNonFinite saves results carrying NaN or ±Inf where encoding/json
// refuses them: in a sample, in a phase's figures, in the power source's
// idle span and in a plain (not nullable) summary value. Every save must
// succeed, write null there, keep every other figure, and say so in a
// note; Load must read the file back.
func TestSaveNonFinite(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	type figs struct {
		MIPS   float64  `json:"mips"`
		PowerW *float64 `json:"power_w"`
		Runs   []float64
	}
	tests := []struct {
		name     string
		build    func(r *Result) error
		wantNull []string // substrings of the saved JSON
		keep     string   // a figure that must survive
		noteHas  string
	}{
		{name: "sample +Inf", build: func(r *Result) error {
			p := Phase{Name: "monitor", Status: PhaseOK}
			p.Samples = []Sample{{PowerW: &inf, TempC: ptrF(41.5)}}
			r.Phases = append(r.Phases, p)
			return nil
		}, wantNull: []string{`"samples": [`}, keep: `"temp_c": 41.5`, noteHas: "phases[0].samples[0].power_w (+Inf)"},
		{name: "figure +Inf and NaN", build: func(r *Result) error {
			p := Phase{Name: "7zip-multi", Status: PhaseOK}
			if err := p.SetFigures(figs{MIPS: inf, PowerW: &nan, Runs: []float64{1200, inf}}); err != nil {
				return err
			}
			r.Phases = append(r.Phases, p)
			return nil
		}, wantNull: []string{`"mips": null`, `"power_w": null`, `"Runs": [`}, keep: `1200`, noteHas: "figures.mips (+Inf)"},
		{name: "idle power -Inf", build: func(r *Result) error {
			ninf := math.Inf(-1)
			r.Power = &Power{Source: "shelly:x", Idle: &PowerSpan{PowerW: &ninf, DurationS: 10}}
			return nil
		}, wantNull: []string{`"power_w": null`}, keep: `"duration_s": 10`, noteHas: "power.idle.power_w (-Inf)"},
		{name: "summary value +Inf", build: func(r *Result) error {
			r.Summary.MemcpyMBs = []Value{{CPU: 0, Core: "A53", Value: inf}, {CPU: 4, Core: "A72", Value: 2345}}
			return nil
		}, wantNull: []string{`"value": null`}, keep: `"value": 2345`, noteHas: "summary.memcpy_mb_s[0].value (+Inf)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "r.json")
			r := New("run", nil, nil)
			if err := tc.build(r); err != nil {
				t.Fatalf("building: %v", err)
			}
			if err := Save(p, r); err != nil {
				t.Fatalf("Save: %v", err)
			}
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			doc := string(data)
			for _, w := range append(tc.wantNull, tc.keep) {
				if !strings.Contains(doc, w) {
					t.Errorf("saved result lacks %s:\n%s", w, doc)
				}
			}
			got, err := Load(p)
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			if len(got.Phases) > 0 && len(got.Phases[0].Samples) > 0 && got.Phases[0].Samples[0].PowerW != nil {
				t.Errorf("sample power %v, want none", *got.Phases[0].Samples[0].PowerW)
			}
			if len(got.Phases) > 0 && len(got.Phases[0].Figures) > 0 {
				var c bytes.Buffer
				json.Compact(&c, got.Phases[0].Figures)
				if c.String() != `{"mips":null,"power_w":null,"Runs":[1200,null]}` {
					t.Errorf("figures %s", c.String())
				}
			}
			notes := strings.Join(got.Notes, "\n")
			for _, ph := range got.Phases {
				notes += "\n" + strings.Join(ph.Notes, "\n")
			}
			if !strings.Contains(notes, tc.noteHas) || !strings.Contains(notes, "null") {
				t.Errorf("notes %q lack %q", notes, tc.noteHas)
			}
			// A second save neither fails nor repeats the note.
			if err := Save(p, r); err != nil {
				t.Fatalf("second Save: %v", err)
			}
			again, _ := Load(p)
			if len(again.Notes) != len(got.Notes) {
				t.Errorf("notes grew on a second save: %q", again.Notes)
			}
		})
	}
}

func ptrF(v float64) *float64 { return &v }
