package memmeasure

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/memory"
	"boardbench/internal/probe/membw"
	"boardbench/internal/probe/memlat"
	"boardbench/internal/testutil/fixture"
)

func f64(v float64) *float64 { return &v }
func i64(v int64) *int64     { return &v }

func TestCPUs(t *testing.T) {
	rk3588 := cpu.Info{Clusters: []cpu.Cluster{
		{ID: 0, CPUs: []int{0, 1, 2, 3}, Core: "Cortex-A55", MaxMHz: f64(1800)},
		{ID: 1, CPUs: []int{4, 5}, Core: "Cortex-A76", MaxMHz: f64(2256)},
		{ID: 2, CPUs: []int{6, 7}, Core: "Cortex-A76", MaxMHz: f64(2304)},
	}}
	dual := cpu.Info{Clusters: []cpu.Cluster{
		{ID: 0, CPUs: []int{0, 1, 2, 3}, Core: "Cortex-A53", MaxMHz: f64(1800)},
		{ID: 1, CPUs: []int{4, 5}, Core: "Cortex-A73", MaxMHz: f64(2208)},
	}}
	all := []int{0, 1, 2, 3, 4, 5, 6, 7}
	tests := []struct {
		name   string
		info   cpu.Info
		usable []int
		want   []int
	}{
		{"one per core type; binned A76 clusters apart", rk3588, all, []int{0, 4, 6}},
		{"unusable CPUs skipped", rk3588, []int{1, 4, 5}, []int{1, 4}},
		{"big.LITTLE", dual, []int{0, 1, 2, 3, 4, 5}, []int{0, 4}},
		{"no clusters", cpu.Info{}, []int{2, 3}, []int{2}},
		{"nothing usable", rk3588, nil, nil},
	}
	for _, tt := range tests {
		if got := CPUs(tt.info, tt.usable); !slices.Equal(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestLatencyConfig(t *testing.T) {
	const M = memlat.MiB
	h := fixture.Host(t, nil)
	tests := []struct {
		name      string
		plan      Plan
		budget    int64
		latMax    int64
		huge      bool
		noteParts []string
	}{
		{"512 MB board", Plan{LatencyMaxBytes: 256 * M, HugePages: true, THPMode: "madvise"}, 350 * M / 4, 64 * M, true, []string{"available memory"}},
		{"big machine", Plan{LatencyMaxBytes: 256 * M, HugePages: true, THPMode: "always"}, 2 << 30, 256 * M, true, nil},
		{"256 MB board, THP off", Plan{LatencyMaxBytes: 64 * M, HugePages: true, THPMode: "never"}, 180 * M / 4, 32 * M, false,
			[]string{"available memory", "disabled (never)"}},
		{"limit", Plan{LatencyMaxBytes: 256 * M, HugePages: true, MaxBufferBytes: 48 * M, LimitFlag: "--max-size"}, 2 << 30, 32 * M, false,
			[]string{"--max-size", "not exposed"}},
		{"64K-page kernel", Plan{LatencyMaxBytes: 256 * M, HugePages: true, THPMode: "madvise", HugePageBytes: 512 * M}, 2 << 30, 256 * M, false, []string{"too large"}},
		{"run plan without huge pages", Plan{LatencyMaxBytes: 16 * M}, 2 << 30, 16 * M, false, nil},
	}
	for _, tt := range tests {
		var notes []string
		lat := latencyConfig(h, 0, tt.plan, tt.budget, &notes)
		if lat.MaxBytes != tt.latMax || lat.HugePages != tt.huge {
			t.Errorf("%s: latency max %d MiB huge %v, want %d MiB %v", tt.name, lat.MaxBytes>>20, lat.HugePages, tt.latMax>>20, tt.huge)
		}
		all := strings.Join(notes, "; ")
		for _, part := range tt.noteParts {
			if !strings.Contains(all, part) {
				t.Errorf("%s: notes %q lack %q", tt.name, all, part)
			}
		}
		if len(tt.noteParts) == 0 && len(notes) > 0 {
			t.Errorf("%s: unexpected notes %q", tt.name, all)
		}
	}
}

func TestForMachine(t *testing.T) {
	info := &inventory.Info{Memory: memory.Info{AvailableBytes: i64(800 << 20), HugePageSizeBytes: i64(2 << 20),
		TransparentHugePages: &memory.HugePages{Enabled: &memory.Choice{Selected: "madvise"}}}}
	p := CommandPlan(false).ForMachine(info)
	if p.BudgetBytes != 200<<20 || p.THPMode != "madvise" || p.HugePageBytes != 2<<20 {
		t.Errorf("plan %+v", p)
	}
	if p := RunPlan(true).ForMachine(&inventory.Info{}); p.BudgetBytes != 0 || p.THPMode != "" {
		t.Errorf("unknown machine: %+v", p)
	}
}

// TestRunBuffersWithinQuarterOfAvailable: without a size limit of its own
// (mem's --max-size), the memory measurement of `run` (and of `mem`)
// never maps more than a quarter of MemAvailable at once: the two
// bandwidth buffers, the latency block with its chain scratch (1/16 of
// the block), and every core's slices of the all-cores pass, whatever the
// last-level cache and the number of CPUs. The boards' MemAvailable come
// from their /proc/meminfo (the 64 MB one is the arm64 VM of
// scripts/arm-vm-check.sh: Debian's kernel leaves 18.5 MiB).
func TestRunBuffersWithinQuarterOfAvailable(t *testing.T) {
	const K, M = 1024, memlat.MiB
	boards := []struct {
		name             string
		total, available int64 // kB, as in /proc/meminfo
	}{
		{"64 MB board", 35244, 18980},
		{"128 MB board", 100284, 61720},
		{"512 MB board", 439972, 351616},
		{"2 GB board", 1951284, 1607404},
		{"16 GB machine", 16303820, 14120508},
	}
	plans := []struct {
		name string
		plan Plan
	}{
		{"run --quick", RunPlan(true)}, {"run", RunPlan(false)}, {"mem --quick", CommandPlan(true)}, {"mem", CommandPlan(false)},
	}
	for _, b := range boards {
		h := fixture.Host(t, map[string]string{"/proc/meminfo": fmt.Sprintf(
			"MemTotal:       %d kB\nMemFree:        %d kB\nMemAvailable:   %d kB\n", b.total, b.available*2/3, b.available)})
		info := inventory.Collect(h, inventory.Options{Redact: true})
		quarter := b.available * K / 4
		for _, p := range plans {
			plan := p.plan.ForMachine(info)
			if plan.BudgetBytes != quarter {
				t.Fatalf("%s, %s: budget %d bytes, want a quarter of MemAvailable (%d)", b.name, p.name, plan.BudgetBytes, quarter)
			}
			var notes []string
			lat := latencyConfig(h, 0, plan, plan.BudgetBytes, &notes)
			if used := lat.MaxBytes + lat.MaxBytes/16; used > quarter {
				t.Errorf("%s, %s: latency block and scratch %d bytes, over a quarter of MemAvailable (%d)", b.name, p.name, used, quarter)
			}
			for _, llc := range []int64{0, 512 * K, 4 * M, 64 * M} {
				size, _ := membw.BufferSize(llc, plan.BudgetBytes, plan.MaxBufferBytes)
				if 2*size > quarter {
					t.Errorf("%s, %s, LLC %d KiB: two bandwidth buffers of %d bytes, over a quarter of MemAvailable (%d)", b.name, p.name, llc/K, size, quarter)
				}
				for _, ncpu := range []int{1, 4, 8} {
					if slice := membw.SliceSize(size, plan.BudgetBytes, ncpu); 2*slice*int64(ncpu) > quarter {
						t.Errorf("%s, %s, LLC %d KiB, %d CPUs: slices of %d bytes, over a quarter of MemAvailable (%d)", b.name, p.name, llc/K, ncpu, slice, quarter)
					}
				}
			}
		}
	}
}
