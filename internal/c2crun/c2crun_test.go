package c2crun

import (
	"reflect"
	"testing"
	"time"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/probe/c2c"
	"boardbench/internal/result"
)

// TestStep: the plan names each CPU's core type, measures every pair up to
// c2c.MaxFullMatrix CPUs and a noted sample above, and estimates PerPair a
// pair; nothing is measured before the step runs.
func TestStep(t *testing.T) {
	bigLittle := &inventory.Info{CPU: cpu.Info{Clusters: []cpu.Cluster{
		{ID: 0, CPUs: []int{0, 1}, Core: "Cortex-A55"}, {ID: 1, CPUs: []int{2, 3}, Core: "Cortex-A76"}}}}
	many := make([]int, c2c.MaxFullMatrix+2)
	for i := range many {
		many[i] = i
	}
	tests := []struct {
		name      string
		info      *inventory.Info
		cpus      []int
		wantCores []string
		wantPairs int
		sampled   bool
	}{
		{"big.LITTLE", bigLittle, []int{0, 1, 2, 3}, []string{"Cortex-A55", "Cortex-A55", "Cortex-A76", "Cortex-A76"}, 6, false},
		{"no clusters", &inventory.Info{}, []int{0, 2}, []string{"", ""}, 1, false},
		{"sampled", &inventory.Info{}, many, make([]string, len(many)), len(c2c.Pairs(many, nil)), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			step, figs := Step(tt.info, tt.cpus, nil)
			if step.Name != result.PhaseC2C || !reflect.DeepEqual(step.CPUs, tt.cpus) || step.Estimate != PerPair*time.Duration(tt.wantPairs) {
				t.Errorf("step %s on %v, estimate %s; want %d pairs", step.Name, step.CPUs, step.Estimate, tt.wantPairs)
			}
			if !reflect.DeepEqual(figs.Cores, tt.wantCores) || figs.Sampled != tt.sampled || len(figs.Pairs) != 0 {
				t.Errorf("figures %+v", figs)
			}
			if tt.sampled != (len(figs.Notes) == 1) {
				t.Errorf("notes %v", figs.Notes)
			}
		})
	}
}
