package session

import (
	"reflect"
	"testing"

	"boardbench/internal/finding"
	"boardbench/internal/result"
)

// TestDisturbedLinesPerPhase: phases that share a name (mem's per-CPU
// phases are all "memory", a sweep's steps "sweep-multi") are marked
// disturbed one by one, by their own judgement or excluded figure, not all
// together because a finding names their shared name; other findings
// still concern every phase of the name.
func TestDisturbedLinesPerPhase(t *testing.T) {
	cpu1 := 1
	mem := func(cpu int, disturbed bool) result.Phase {
		p := result.Phase{Name: result.PhaseMemory, Title: "Memory on cpu" + string(rune('0'+cpu)), CPUs: []int{cpu}, Status: result.PhaseOK}
		if disturbed {
			p.Judgement = &result.Judgement{Disturbed: true}
		}
		return p
	}
	tests := []struct {
		name     string
		phases   []result.Phase
		excluded []result.ExcludedFigure
		findings []finding.Finding
		want     []string
	}{
		{"judged disturbed", []result.Phase{mem(0, false), mem(1, true), mem(2, false)}, nil,
			[]finding.Finding{{ID: "disturbed_figures", Severity: finding.Invalidates, Title: "Not figures", Phases: []string{result.PhaseMemory}}},
			[]string{"Memory on cpu1: Not figures (disturbed_figures)"}},
		{"excluded figure on its CPU", []result.Phase{mem(0, false), mem(1, false)},
			[]result.ExcludedFigure{{Figure: "memcpy", Phase: result.PhaseMemory, CPU: &cpu1}},
			[]finding.Finding{{ID: "disturbed_figures", Severity: finding.Invalidates, Title: "Not figures", Phases: []string{result.PhaseMemory}}},
			[]string{"Memory on cpu1: Not figures (disturbed_figures)"}},
		{"another finding names them all", []result.Phase{mem(0, false), mem(1, false)}, nil,
			[]finding.Finding{{ID: "swapping", Severity: finding.Warning, Title: "Swapping", Phases: []string{result.PhaseMemory}}},
			[]string{"Memory on cpu0: Swapping (swapping)", "Memory on cpu1: Swapping (swapping)"}},
		{"a unique name needs no judgement", []result.Phase{{Name: "sevenzip-multi", Title: "7-Zip", Status: result.PhaseOK}}, nil,
			[]finding.Finding{{ID: "disturbed_runs", Severity: finding.Warning, Title: "Runs left out", Phases: []string{"sevenzip-multi"}}},
			[]string{"7-Zip: Runs left out (disturbed_runs)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &result.Result{Phases: tt.phases, Findings: tt.findings}
			r.Summary.Excluded = tt.excluded
			if got := DisturbedLines(r); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("DisturbedLines = %q, want %q", got, tt.want)
			}
		})
	}
}
