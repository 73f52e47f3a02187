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

// TestDisturbedHPLAndSSHAreWarnings: hpl and ssh-ciphers follow the rule
// of every workload (a disturbed phase is a warning and leaves
// summary.workloads), while a FAILED HPL residual check still invalidates
// the result, disturbed or not: the machine computed wrong results.
func TestDisturbedHPLAndSSHAreWarnings(t *testing.T) {
	res := 2145.6
	hpl := func(foreign float64, failed bool) result.Phase {
		return phase(result.PhaseHPL, []int{0, 1}, func(p *result.Phase) {
			run := result.HPLRun{Variant: "WR11C2R4", N: 2000, NB: 128, P: 1, Q: 2, TimeS: 1, Gflops: 3, Residual: &res, Check: "PASSED"}
			if failed {
				run.Check = "FAILED"
			}
			mustSet(t, p, result.HPLFigures{Tool: "hpcc", Gflops: f64(3), Runs: []result.HPLRun{run}, ResidualFailed: failed})
			p.Samples = loaded(95-foreign, foreign)
		})
	}
	ssh := func(foreign float64) result.Phase {
		return phase(result.PhaseSSHCiphers, []int{0, 1}, func(p *result.Phase) {
			mustSet(t, p, result.SSHFigures{Bytes: 1 << 20, Ciphers: []result.SSHCipher{{Cipher: "aes128-ctr", MBs: f64(80)}}})
			p.Samples = loaded(95-foreign, foreign)
		})
	}
	tests := []struct {
		name      string
		phases    []result.Phase
		valid     bool
		headlines bool
		ids       []string
	}{
		{"quiet", []result.Phase{hpl(0, false), ssh(0)}, true, true, nil},
		{"disturbed", []result.Phase{hpl(25, false), ssh(25)}, true, false, []string{"disturbed_runs"}},
		{"residual failed", []result.Phase{hpl(0, true)}, false, true, []string{"hpl_residual_failed"}},
		{"residual failed and disturbed", []result.Phase{hpl(25, true)}, false, false, []string{"hpl_residual_failed", "disturbed_runs"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := &result.Result{Command: "run", Status: result.StatusComplete, Phases: tc.phases}
			Validate(r, Facts{NCPU: 2}, result.BuildSummary, nil)
			if r.Summary.Valid != tc.valid || hasID(r.Findings, "disturbed_figures") != nil {
				t.Errorf("verdict %v %q, findings %s", r.Summary.Valid, r.Summary.Verdict, ids(r.Findings))
			}
			for _, id := range tc.ids {
				if hasID(r.Findings, id) == nil {
					t.Errorf("no %s: %s", id, ids(r.Findings))
				}
			}
			if got := r.Summary.Workloads != nil && r.Summary.Workloads.HPL != nil; got != tc.headlines {
				t.Errorf("summary workloads %+v, want headlines %v", r.Summary.Workloads, tc.headlines)
			}
			if len(r.Summary.Excluded) != 0 {
				t.Errorf("excluded %+v", r.Summary.Excluded)
			}
		})
	}
}
