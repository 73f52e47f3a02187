package store

import (
	"testing"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/result"
)

func TestCoreTypes(t *testing.T) {
	cluster := func(core string, n int) cpu.Cluster {
		cl := cpu.Cluster{Core: core}
		for i := range n {
			cl.CPUs = append(cl.CPUs, i)
		}
		return cl
	}
	tests := []struct {
		name     string
		clusters []cpu.Cluster
		want     string
	}{
		{"named", []cpu.Cluster{cluster("Cortex-A76", 4), cluster("Cortex-A55", 4)}, "4×Cortex-A76 + 4×Cortex-A55"},
		{"unnamed", []cpu.Cluster{cluster("", 32)}, "32×unknown core"},
		{"dash from an imported log", []cpu.Cluster{cluster("-", 16), cluster(" ", 16)}, "32×unknown core"},
		{"mixed", []cpu.Cluster{cluster("Cortex-A72", 4), cluster("", 2)}, "4×Cortex-A72 + 2×unknown core"},
		{"no clusters", nil, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &result.Result{Info: &inventory.Info{}}
			r.Info.CPU.Clusters = tt.clusters
			if got := CoreTypes(r); got != tt.want {
				t.Errorf("CoreTypes = %q, want %q", got, tt.want)
			}
		})
	}
	if got := CoreTypes(&result.Result{}); got != "" {
		t.Errorf("CoreTypes without a machine description = %q, want \"\"", got)
	}
}
