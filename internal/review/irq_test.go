package review

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"boardbench/internal/inventory/cpu"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/tune"
)

// bigLittleIRQRoot is a writable fixture root of a board with two
// Cortex-A55 (cpu0-1, capacity 512) and two Cortex-A76 (cpu2-3, capacity
// 1024) whose busy device interrupts all land on CPU0, each allowed on
// every CPU (smp_affinity f).
func bigLittleIRQRoot(t *testing.T) string {
	t.Helper()
	var cpuinfo strings.Builder
	files := map[string]string{
		"/proc/interrupts": "           CPU0       CPU1       CPU2       CPU3\n" +
			" 11:     500000     400000     400000     400000     GICv3  27 Level     arch_timer\n" +
			" 41:     250000          0          0          0     GICv3 260 Level     eth0\n" +
			" 42:     120000          0          0          0     GICv3 141 Level     xhci-hcd:usb1\n" +
			" 43:       5000          0          0          0     GICv3  58 Level     mmc0\n" +
			" 44:         10          0          0          0     GICv3  59 Level     quiet\n" +
			"IPI0:      1000       1000       1000       1000       Rescheduling interrupts\n",
		"/sys/devices/system/cpu/online": "0-3\n", "/sys/devices/system/cpu/possible": "0-3\n", "/sys/devices/system/cpu/present": "0-3\n",
	}
	for c := 0; c < 4; c++ {
		part, capacity := "0xd05", "512"
		if c >= 2 {
			part, capacity = "0xd0b", "1024"
		}
		fmt.Fprintf(&cpuinfo, "processor\t: %d\nCPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: 0x2\nCPU part\t: %s\nCPU revision\t: 0\n\n", c, part)
		files[fmt.Sprintf("/sys/devices/system/cpu/cpu%d/cpu_capacity", c)] = capacity + "\n"
	}
	files["/proc/cpuinfo"] = cpuinfo.String()
	for _, n := range []string{"41", "42", "43", "44"} {
		files["/proc/irq/"+n+"/smp_affinity"] = "f\n"
		files["/proc/irq/"+n+"/smp_affinity_list"] = "0-3\n"
	}
	return fixture.Root(t, files)
}

func TestIRQTargets(t *testing.T) {
	capa := func(v int) *int { return &v }
	mhz := func(v float64) *float64 { return &v }
	bigLittle := []cpu.Cluster{{CPUs: []int{0, 1, 2, 3}, Capacity: capa(446)}, {CPUs: []int{4, 5, 6, 7}, Capacity: capa(1024)}}
	for _, tc := range []struct {
		name     string
		clusters []cpu.Cluster
		online   []int
		busy     int
		want     []int
	}{
		{"big.LITTLE: the big cores", bigLittle, []int{0, 1, 2, 3, 4, 5, 6, 7}, 0, []int{4, 5, 6, 7}},
		{"big.LITTLE, busy on a big core", bigLittle, []int{0, 1, 2, 3, 4, 5, 6, 7}, 4, []int{5, 6, 7}},
		{"big cores offline: the others", bigLittle, []int{0, 1, 2, 3}, 0, []int{1, 2, 3}},
		{"by clock without capacity", []cpu.Cluster{{CPUs: []int{0, 1}, MaxMHz: mhz(2000)}, {CPUs: []int{2, 3}, MaxMHz: mhz(1400)}}, []int{0, 1, 2, 3}, 0, []int{1}},
		{"one cluster", []cpu.Cluster{{CPUs: []int{0, 1, 2, 3}, Capacity: capa(1024)}}, []int{0, 1, 2, 3}, 0, []int{1, 2, 3}},
		{"no clusters known", nil, []int{0, 1}, 1, []int{0}},
		{"one CPU", nil, []int{0}, 0, nil},
	} {
		if got := IRQTargets(tc.clusters, tc.online, tc.busy); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: IRQTargets = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestApplyIRQAffinity applies the plan on a big.LITTLE fixture: the
// three busy interrupts go, busiest first, to cpu2, cpu3, cpu2 (the A76
// cluster); the quiet one stays. The previous masks are in the state file;
// closing the guard puts them back, and so does `boardbench restore`'s
// RestoreStateFile after a crash.
func TestApplyIRQAffinity(t *testing.T) {
	for _, crash := range []bool{false, true} {
		t.Run(fmt.Sprintf("crash=%v", crash), func(t *testing.T) {
			state := t.TempDir()
			root := bigLittleIRQRoot(t)
			before := fixture.Snapshot(t, root)
			h := fixture.Open(t, root)
			plan := PlanChanges(h, time.Now())
			want := map[string]string{"/proc/irq/41/smp_affinity": "4", "/proc/irq/42/smp_affinity": "8", "/proc/irq/43/smp_affinity": "4"}
			got := map[string]string{}
			for _, c := range plan {
				if strings.HasPrefix(c.Path, "/proc/irq/") {
					got[c.Path] = c.To
					if c.Finding != "irq_single_cpu" || c.From != "f" {
						t.Errorf("change %+v", c)
					}
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("affinity changes %v, want %v", got, want)
			}
			g, _, err := tune.NewGuard(context.Background(), h, tune.AllowNoFrequency(), tune.WithStateDir(state))
			if err != nil {
				t.Fatal(err)
			}
			for _, c := range Apply(g, plan) {
				if c.Error != "" {
					t.Errorf("%s: %s", c.Path, c.Error)
				}
			}
			for p, v := range want {
				if b, _ := os.ReadFile(filepath.Join(root, p)); strings.TrimSpace(string(b)) != v {
					t.Errorf("%s = %q after apply, want %s", p, b, v)
				}
			}
			sf, err := tune.ReadStateFile(g.StatePath())
			if err != nil {
				t.Fatal(err)
			}
			saved := 0
			for _, f := range sf.Saved.Files {
				if strings.HasPrefix(f.Path, "/proc/irq/") && f.Previous == "f\n" {
					saved++
				}
			}
			if saved != 3 {
				t.Errorf("state file holds %d previous masks, want 3: %+v", saved, sf.Saved.Files)
			}
			if crash {
				// The process died: restore from the state file alone.
				if _, err := tune.RestoreStateFile(fixture.Open(t, root), sf, false); err != nil {
					t.Fatal(err)
				}
			}
			if err := g.Close(); err != nil {
				t.Fatal(err)
			}
			if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
				t.Error("the fixture was not restored")
			}
			if left, _ := filepath.Glob(filepath.Join(state, "*")); len(left) != 0 {
				t.Errorf("state files left: %v", left)
			}
		})
	}
}

// TestPlanRPSOnlyForNamedInterfaces: receive packet steering is planned
// for the interface whose interrupt irq_single_cpu names (eth0), with the
// mask of the faster cluster (cpu2-3: "c"), and not for another physical
// interface (eth1) nor for a virtual one; a queue someone set is left
// alone. Without the finding (interrupts spread), nothing is planned.
func TestPlanRPSOnlyForNamedInterfaces(t *testing.T) {
	nics := map[string]string{
		"/sys/class/net/eth0/device":               "/",
		"/sys/class/net/eth0/queues/rx-0/rps_cpus": "0\n",
		"/sys/class/net/eth0/queues/rx-1/rps_cpus": "2\n",
		"/sys/class/net/eth1/device":               "/",
		"/sys/class/net/eth1/queues/rx-0/rps_cpus": "0\n",
		"/sys/class/net/br0/queues/rx-0/rps_cpus":  "0\n",
	}
	root := bigLittleIRQRoot(t)
	fixture.Add(t, root, nics)
	got := map[string]string{}
	for _, c := range PlanChanges(fixture.Open(t, root), time.Now()) {
		if strings.HasSuffix(c.Path, "/rps_cpus") {
			got[c.Path] = c.Finding + ": " + c.From + " → " + c.To
		}
	}
	want := map[string]string{"/sys/class/net/eth0/queues/rx-0/rps_cpus": "irq_single_cpu: 0 → c"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("RPS changes %v, want %v", got, want)
	}

	spread := bigLittleIRQRoot(t)
	fixture.Add(t, spread, nics)
	fixture.Write(t, spread, "/proc/interrupts", "           CPU0       CPU1       CPU2       CPU3\n"+
		" 41:     250000     250000          0          0     GICv3 260 Level     eth0\n"+
		" 42:     120000          0     120000          0     GICv3 141 Level     xhci-hcd:usb1\n")
	for _, c := range PlanChanges(fixture.Open(t, spread), time.Now()) {
		t.Errorf("change planned with the interrupts spread: %+v", c)
	}
}

// TestEveryChangeAnswersAFiredFinding plans the changes of every fixture
// board (and of a copy of the ROCK 5B with a physical NIC whose queues
// steer nothing): each must name a finding that fired on that board.
func TestEveryChangeAnswersAFiredFinding(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join("..", "..", fixture.BoardsDir))
	if err != nil {
		t.Fatal(err)
	}
	for _, ent := range entries {
		if !ent.IsDir() || strings.HasPrefix(ent.Name(), "_") {
			continue
		}
		t.Run(ent.Name(), func(t *testing.T) {
			h := fixture.Board(t, ent.Name())
			fired := map[string]bool{}
			for _, f := range Run(h, now).Findings {
				fired[f.ID] = true
			}
			for _, c := range PlanChanges(h, now) {
				if !fired[c.Finding] {
					t.Errorf("change %s → %s answers %s, which did not fire", c.Path, c.To, c.Finding)
				}
			}
		})
	}
}
