package netbench

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"boardbench/internal/check"
	"boardbench/internal/host"
	"boardbench/internal/inventory/netif"
	"boardbench/internal/result"
	"boardbench/internal/testutil/fixture"
)

// zero2wRoot copies the Zero 2 W board with its USB NIC overlay into a
// temporary root that the test may write.
func zero2wRoot(t *testing.T) (string, *host.Host) {
	t.Helper()
	root := t.TempDir()
	overlay := filepath.Join(filepath.Dir(fixture.BoardPath(t, "rpi-zero2w")), "..", "net", "zero2w-usb-nic")
	for _, src := range []string{fixture.BoardPath(t, "rpi-zero2w"), overlay} {
		if out, err := exec.Command("cp", "-a", src+"/.", root).CombinedOutput(); err != nil {
			t.Fatalf("cp %s: %v\n%s", src, err, out)
		}
	}
	h, err := host.New(root)
	if err != nil {
		t.Fatal(err)
	}
	return root, h
}

// TestZero2WInterruptDoesNotMove writes the advised affinity of the Zero 2
// W's USB interrupt on the fixture, reads the effective affinity back
// (still cpu0), records it, and checks the advice changes: no affinity
// for irq 56 any more, receive steering away from cpu0, and the reason.
func TestZero2WInterruptDoesNotMove(t *testing.T) {
	root, h := zero2wRoot(t)
	facts := check.NetFacts{Interfaces: []netif.Details{netif.Describe(h, "eth0", nil)}, CPUs: []int{0, 1, 2, 3},
		Clusters: []check.NetCluster{{CPUs: []int{0, 1, 2, 3}, Core: "Cortex-A53"}}}
	plan := check.SpreadPlan(facts)
	var errs []error
	for _, s := range plan {
		errs = append(errs, h.WriteString(s.Path, s.Value))
	}
	if b, _ := os.ReadFile(filepath.Join(root, "proc/irq/56/smp_affinity")); strings.TrimSpace(string(b)) != "2" {
		t.Fatalf("smp_affinity after the write = %q", b)
	}
	found := CheckMoved(h, plan, errs)
	if len(found) != 1 || found[0].IRQ != "56" || found[0].Effective != "0" || found[0].Wanted != "1" ||
		!strings.Contains(found[0].Name, "dwc_otg") {
		t.Fatalf("CheckMoved = %+v", found)
	}
	dir := t.TempDir()
	if err := SaveUnmovable(dir, found); err != nil {
		t.Fatal(err)
	}
	// Saved twice: one entry.
	if err := SaveUnmovable(dir, found); err != nil {
		t.Fatal(err)
	}
	facts.Unmovable = LoadUnmovable(dir)
	if len(facts.Unmovable) != 1 {
		t.Fatalf("record = %+v", facts.Unmovable)
	}
	phase := func(load [][4]float64) result.Phase {
		f := result.NetFigures{}
		for c, l := range load {
			f.CPULoad = append(f.CPULoad, result.NetCPULoad{CPU: c, Usr: l[0], Sys: l[1], IRQ: l[2], Softirq: l[3]})
		}
		b, _ := json.Marshal(f)
		return result.Phase{Name: result.PhaseNetTCPReverse, Status: result.PhaseOK, Figures: b}
	}
	fs := check.NetFindings(facts, []result.Phase{phase([][4]float64{{3, 6, 12, 37}, {1, 1, 0, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}})})
	var advice, evidence string
	for _, f := range fs {
		if f.ID == check.IDNetOneCPU {
			advice, evidence = f.Advice, strings.Join(f.Evidence, "\n")
		}
	}
	if advice == "" {
		t.Fatalf("no %s finding: %+v", check.IDNetOneCPU, fs)
	}
	for _, want := range []string{"echo e > /sys/class/net/eth0/queues/rx-0/rps_cpus", "cannot be moved", "irq 56"} {
		if !strings.Contains(advice, want) {
			t.Errorf("advice lacks %q:\n%s", want, advice)
		}
	}
	if strings.Contains(advice, "/proc/irq/56/smp_affinity") {
		t.Errorf("advice still moves irq 56:\n%s", advice)
	}
	if !strings.Contains(evidence, "irq 56") || !strings.Contains(evidence, "did not move") {
		t.Errorf("evidence = %s", evidence)
	}
}

func TestCheckMoved(t *testing.T) {
	spread := check.Spread{Path: "/proc/irq/39/smp_affinity", Value: "2", IRQ: "39", Name: "eth0", CPUs: []int{1}}
	tests := []struct {
		name      string
		effective string // "" leaves the file out
		err       error
		want      string // reason substring, "" for moved / unknown
	}{
		{"moved", "1\n", nil, ""},
		{"stayed", "0\n", nil, "did not follow"},
		{"no effective affinity file", "", nil, ""},
		{"write failed", "0\n", errors.New("input/output error"), "writing its affinity failed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"proc/irq/39/smp_affinity": "2\n"}
			if tt.effective != "" {
				files["proc/irq/39/effective_affinity_list"] = tt.effective
			}
			h := fixture.Host(t, files)
			got := CheckMoved(h, []check.Spread{spread, {Path: "/sys/class/net/eth0/queues/rx-0/rps_cpus", Value: "d"}}, []error{tt.err, nil})
			if tt.want == "" {
				if len(got) != 0 {
					t.Errorf("got %+v, want none", got)
				}
				return
			}
			if len(got) != 1 || !strings.Contains(got[0].Reason, tt.want) {
				t.Errorf("got %+v, want one with %q", got, tt.want)
			}
		})
	}
	// A malformed record is an empty one.
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, UnmovableFile), []byte("{"), 0o600)
	if got := LoadUnmovable(dir); got != nil {
		t.Errorf("malformed record read as %+v", got)
	}
}
