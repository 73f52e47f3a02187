package sweeprun

import (
	"context"
	"encoding/json"
	"math"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"boardbench/internal/finding"
	"boardbench/internal/proc"
	"boardbench/internal/result"
	"boardbench/internal/testutil/fixture"
)

// TestSweepPasses sweeps the three-OPP fixture with three passes per clock
// and thread count. The fake 7-Zip rates pass 1, 2 and 3 at 99, 100 and
// 101 % of 0.8 MIPS per MHz per thread; the passes named in disturbed show
// a 7-Zip usage of 40 % of what they were given (a pass that did not get
// its CPUs). Each pass is a step of its own; each row is the mean of its
// undisturbed passes with their range, the disturbed ones listed, and the
// verdict says whether a row lost its figure.
func TestSweepPasses(t *testing.T) {
	tests := []struct {
		name string
		// disturbed are the 7-Zip calls (from 1) whose usage is low.
		disturbed []int
		// row 0 is 1000 MHz single-threaded: passes 1-3 are calls 1-3.
		wantRow0MIPS             *float64
		wantRow0Min, wantRow0Max float64
		wantRow0Disturbed        []int
		wantValid                bool
		wantFinding              string
	}{
		{"quiet", nil, ptr(800), 792, 808, nil, true, ""},
		{"one pass disturbed", []int{2}, ptr(800), 792, 808, []int{2}, true, "disturbed_runs"},
		{"first pass disturbed", []int{1}, ptr(804), 800, 808, []int{1}, true, "disturbed_runs"},
		{"every pass disturbed", []int{1, 2, 3}, nil, 0, 0, []int{1, 2, 3}, false, "disturbed_figures"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("BOARDBENCH_STATE_DIR", t.TempDir())
			root := fixture.QuadA53(t)
			before := fixture.Snapshot(t, root)
			cfg, ex := fixtureConfig(t, root)
			n := 0
			ex.hook = func(ctx context.Context, c proc.Command) (proc.Result, error, bool) {
				n++
				pass := (n-1)%3 + 1
				tot := int(math.Round(float64(pinnedKHz(cfg.Host)) / 1000 * 0.8 * float64(len(c.CPUs)) * (1 + 0.01*float64(pass-2))))
				usage := 100 * len(c.CPUs)
				if len(c.CPUs) > 1 {
					usage = 97 * len(c.CPUs)
				}
				if slices.Contains(tt.disturbed, n) {
					usage = 40 * len(c.CPUs)
				}
				return proc.Result{Stdout: []byte(sevenZipOutputUsage(tot, usage))}, nil, true
			}
			out := filepath.Join(t.TempDir(), "sweep.json")
			_, err := Run(context.Background(), cfg, Options{Output: out, Force: true, Passes: 3})
			if tt.wantValid && err != nil {
				t.Fatal(err)
			}
			if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
				t.Error("fixture tunables not restored")
			}
			r, lerr := result.Load(out)
			if lerr != nil {
				t.Fatal(lerr)
			}
			if len(ex.calls) != 18 || len(r.Phases) != 18 {
				t.Fatalf("%d 7-Zip runs, %d phases, want 18 (3 clocks × 2 × 3 passes)", len(ex.calls), len(r.Phases))
			}
			for i, p := range r.Phases {
				var f result.SweepFigures
				if err := json.Unmarshal(p.Figures, &f); err != nil || f.Pass != i%3+1 {
					t.Errorf("phase %d (%s) pass %d, want %d (%v)", i, p.Title, f.Pass, i%3+1, err)
				}
			}
			if !strings.Contains(r.Phases[1].Title, "pass 2 of 3") {
				t.Errorf("phase 1 title %q", r.Phases[1].Title)
			}
			rows := r.Summary.Sweep
			if len(rows) != 6 {
				t.Fatalf("%d rows, want 6 (3 clocks × 2)", len(rows))
			}
			for i, row := range rows {
				if row.Passes != 3 {
					t.Errorf("row %d passes %d", i, row.Passes)
				}
			}
			row := rows[0]
			if !eqPtr(row.MIPS, tt.wantRow0MIPS) || !slices.Equal(row.DisturbedPasses, tt.wantRow0Disturbed) {
				t.Errorf("row 0 MIPS %v disturbed passes %v, want %v %v", fmtPtr(row.MIPS), row.DisturbedPasses, fmtPtr(tt.wantRow0MIPS), tt.wantRow0Disturbed)
			}
			if tt.wantRow0MIPS != nil && (row.MIPSMin == nil || *row.MIPSMin != tt.wantRow0Min || row.MIPSMax == nil || *row.MIPSMax != tt.wantRow0Max) {
				t.Errorf("row 0 range %v–%v, want %v–%v", fmtPtr(row.MIPSMin), fmtPtr(row.MIPSMax), tt.wantRow0Min, tt.wantRow0Max)
			}
			if row.Disturbed != (tt.wantRow0MIPS == nil) || (len(tt.wantRow0Disturbed) > 0) != strings.Contains(row.Reason, "usage") {
				t.Errorf("row 0 disturbed %v reason %q", row.Disturbed, row.Reason)
			}
			if tt.wantRow0MIPS == nil && (row.MeasuredMHz != nil || row.MIPSMin != nil) {
				t.Errorf("row 0 lost its passes but shows clock %v, range %v", fmtPtr(row.MeasuredMHz), fmtPtr(row.MIPSMin))
			}
			// The 1000 MHz multi-threaded row: 3168, 3200, 3232.
			if m := rows[1]; m.MIPS == nil || *m.MIPS != 3200 || *m.MIPSMin != 3168 || *m.MIPSMax != 3232 || len(m.DisturbedPasses) != 0 {
				t.Errorf("row 1 = %+v", m)
			}
			if r.Summary.Valid != tt.wantValid {
				t.Errorf("valid %v, want %v: %s", r.Summary.Valid, tt.wantValid, r.Summary.Verdict)
			}
			ids := findingIDs(r.Findings)
			if tt.wantFinding != "" && !slices.Contains(ids, tt.wantFinding) {
				t.Errorf("findings %v, want %s", ids, tt.wantFinding)
			}
			if tt.wantFinding == "" && (slices.Contains(ids, "disturbed_runs") || slices.Contains(ids, "disturbed_figures")) {
				t.Errorf("findings %v on a quiet sweep", ids)
			}
			for _, e := range r.Summary.Excluded {
				if e.Figure == "sweep.mips" && (!slices.Contains(tt.disturbed, e.Run) || e.Lost != (tt.wantRow0MIPS == nil) || !strings.Contains(e.Reason, "at 1000 MHz")) {
					t.Errorf("excluded %+v", e)
				}
			}
		})
	}
}

func ptr(v float64) *float64 { return &v }

func eqPtr(a, b *float64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func fmtPtr(v *float64) any {
	if v == nil {
		return "null"
	}
	return *v
}

func findingIDs(fs []finding.Finding) []string {
	var ids []string
	for _, f := range fs {
		ids = append(ids, f.ID)
	}
	return ids
}
