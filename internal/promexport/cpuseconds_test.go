package promexport

import (
	"strings"
	"testing"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/soc"
	"boardbench/internal/kernelfile"
	"boardbench/internal/monitor"
)

// timesSource is a fakeSource that also keeps /proc/stat times, counting
// how often they are asked for.
type timesSource struct {
	fakeSource
	per        map[int]kernelfile.CPUTimes
	timesCalls int
}

func (s *timesSource) LastCPUTimes() (map[int]kernelfile.CPUTimes, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.timesCalls++
	return s.per, s.per != nil
}

func withTimes(smp *monitor.Sample) *timesSource {
	return &timesSource{fakeSource: fakeSource{s: smp}, per: map[int]kernelfile.CPUTimes{
		0: {User: 1000, Nice: 1, System: 200, Idle: 50000, Iowait: 30, IRQ: 4, SoftIRQ: 5, Steal: 6},
		1: {User: 1250, System: 100, Idle: 49000},
	}}
}

func TestCPUSecondsTotal(t *testing.T) {
	cfg, in := testConfig()
	src := withTimes(fullSample())
	e := New(src, cfg, in, nil)
	var want strings.Builder
	want.WriteString(`
# HELP boardbench_cpu_seconds_total Time a CPU has spent in a mode since boot (/proc/stat, as the sampler last read it).
# TYPE boardbench_cpu_seconds_total counter
`)
	for _, line := range []string{
		`cpu="0",mode="idle"} 500`, `cpu="0",mode="iowait"} 0.3`, `cpu="0",mode="irq"} 0.04`, `cpu="0",mode="nice"} 0.01`,
		`cpu="0",mode="softirq"} 0.05`, `cpu="0",mode="steal"} 0.06`, `cpu="0",mode="system"} 2`, `cpu="0",mode="user"} 10`,
		`cpu="1",mode="idle"} 490`, `cpu="1",mode="iowait"} 0`, `cpu="1",mode="irq"} 0`, `cpu="1",mode="nice"} 0`,
		`cpu="1",mode="softirq"} 0`, `cpu="1",mode="steal"} 0`, `cpu="1",mode="system"} 1`, `cpu="1",mode="user"} 12.5`,
	} {
		want.WriteString(`boardbench_cpu_seconds_total{board="Radxa ROCK 5B \"test\"",` + line[:strings.Index(line, "}")] + `,soc="Rockchip RK3588"` + line[strings.Index(line, "}"):] + "\n")
	}
	if err := collectAndCompare(e, want.String(), "boardbench_cpu_seconds_total"); err != nil {
		t.Error(err)
	}
	// Before the sampler's first reading: no series, never zeros.
	src.per = nil
	if n := collectAndCount(e, "boardbench_cpu_seconds_total"); n != 0 {
		t.Errorf("%d series before the first reading, want 0", n)
	}
}

func TestBoardLabel(t *testing.T) {
	for _, tc := range []struct {
		name string
		b    soc.Board
		want string
	}{
		{"model", soc.Board{Model: "Radxa ROCK 5B", DMI: &soc.DMI{SysVendor: "X", ProductName: "Y"}}, "Radxa ROCK 5B"},
		{"dmi", soc.Board{DMI: &soc.DMI{SysVendor: "QEMU", ProductName: "Standard PC (Q35 + ICH9, 2009)"}}, "QEMU Standard PC (Q35 + ICH9, 2009)"},
		{"cpuinfo hardware", soc.Board{CPUInfoHardware: "BCM2835"}, "BCM2835"},
		{"nothing", soc.Board{DMI: &soc.DMI{}}, Unknown},
	} {
		if got := BoardLabel(&inventory.Info{Board: tc.b}); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	if BoardLabel(nil) != Unknown {
		t.Error("nil inventory")
	}
	// The label is never empty: an unnamed board is "unknown", as is its SoC.
	cfg, _ := testConfig()
	e := New(&fakeSource{s: fullSample()}, cfg, &inventory.Info{}, nil)
	if err := collectAndCompare(e, `
# HELP boardbench_power_watts Power from the chosen power source.
# TYPE boardbench_power_watts gauge
boardbench_power_watts{board="unknown",soc="unknown"} 6.25
`, "boardbench_power_watts"); err != nil {
		t.Error(err)
	}
}
