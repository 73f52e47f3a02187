package check

import (
	"testing"

	"boardbench/internal/result"
)

// TestDisturbedWorkloadIsAWarning: a workload phase (run --workloads) that
// other tasks disturbed loses its place in summary.workloads with a
// warning; the workloads are extras, so the result stays valid.
func TestDisturbedWorkloadIsAWarning(t *testing.T) {
	zstd := func(foreign float64) result.Phase {
		return phase(result.PhaseZstd, []int{0, 1}, func(p *result.Phase) {
			mustSet(t, p, result.ZstdFigures{CPUs: []int{0, 1}, Threads: 2, MBs: f64(2.5), Seconds: f64(40)})
			p.Samples = loaded(95-foreign, foreign)
		})
	}
	tests := []struct {
		name      string
		foreign   float64
		disturbed bool
	}{
		{"quiet", 0, false},
		{"disturbed", 25, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &result.Result{Command: "run", Status: result.StatusComplete, Phases: []result.Phase{zstd(tc.foreign)}}
			Validate(r, Facts{NCPU: 2}, result.BuildSummary, nil)
			if r.Phases[0].IsDisturbed() != tc.disturbed {
				t.Fatalf("judgement %+v", r.Phases[0].Judgement)
			}
			if !r.Summary.Valid || hasID(r.Findings, "disturbed_figures") != nil {
				t.Errorf("verdict %v %q, findings %s", r.Summary.Valid, r.Summary.Verdict, ids(r.Findings))
			}
			if got := r.Summary.Workloads != nil && r.Summary.Workloads.Zstd != nil; got == tc.disturbed {
				t.Errorf("summary workloads %+v (disturbed %v)", r.Summary.Workloads, tc.disturbed)
			}
			if tc.disturbed && hasID(r.Findings, "disturbed_runs") == nil {
				t.Errorf("no warning for the disturbed workload: %s", ids(r.Findings))
			}
		})
	}
}
