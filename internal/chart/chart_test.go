package chart

import (
	"strings"
	"testing"
	"time"

	"boardbench/internal/inventory"
	"boardbench/internal/result"
)

func p(v float64) *float64 { return &v }

// testResult has a sweep of the published Zero 2 W figures, a thermal
// heating and cooling series, and a latency curve with two cache levels.
func testResult() *result.Result {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	r := &result.Result{Command: "sweep", StartedAt: start, Info: &inventory.Info{}}
	r.Info.Board.Model = "Raspberry Pi Zero 2 W Rev 1.0"
	r.Info.SoC.Guess = "BCM2710A1"
	pol := 0
	var rows []result.SweepRow
	single := [][4]float64{{1000, 835, 40.6, 1.61}, {900, 755, 40.2, 1.57}, {800, 676, 39.9, 1.51}, {700, 593, 39.5, 1.39}, {600, 511, 37.4, 1.28}}
	multi := [][4]float64{{1000, 3009, 50.8, 2.33}, {900, 2750, 49, 2.17}, {800, 2465, 46.9, 2.06}, {700, 2152, 45.1, 1.94}, {600, 1870, 42.7, 1.70}}
	for i := range single {
		for j, f := range [][4]float64{single[i], multi[i]} {
			row := result.SweepRow{Policy: &pol, Threads: 1 + 3*j, RequestedMHz: p(f[0]), MIPS: p(f[1]), TempC: p(f[2]), PowerW: p(f[3])}
			row.MIPSPerW = result.MIPSPerWatt(row.MIPS, row.PowerW)
			rows = append(rows, row)
		}
	}
	r.Summary.SweepSummary = &result.SweepSummary{Sweep: rows}
	r.Monitor.Policies = []result.Policy{{ID: 0}}
	var samples []result.Sample
	for s := 20; s <= 1800; s += 10 {
		temp := 40 + 40*(1-expm(float64(s)/400))
		clock := 1000.0
		if temp > 70 {
			clock = 800
		}
		if s > 1200 {
			temp = 42 + (*samples[len(samples)-1].TempC-42)*0.97
			clock = 600
		}
		busy := 100.0
		if s > 1200 {
			busy = 2
		}
		samples = append(samples, result.Sample{Time: start.Add(time.Duration(s) * time.Second), TempC: p(temp), ClockMHz: []*float64{p(clock)}, FirmwareMHz: p(clock),
			PowerW: p(1.2 + clock/1000), CPUPct: p(busy), PerCPUBusyPct: map[int]float64{0: busy, 1: busy, 2: busy, 3: busy}})
	}
	r.Monitor.Policies[0].CPUs = []int{0, 1, 2, 3}
	heat := result.Phase{Name: result.PhaseThermalHeat, CPUs: []int{0, 1, 2, 3}, Status: result.PhaseOK, StartedAt: start, Evidence: result.Evidence{Samples: samples[:119],
		TimeInState: []result.PolicyTime{{Policy: 0, TopMHz: 1000}}}}
	cool := result.Phase{Name: result.PhaseThermalCool, Status: result.PhaseOK, StartedAt: samples[119].Time, Evidence: result.Evidence{Samples: samples[119:]}}
	clk := result.ClockFigures{Clusters: []result.ClockCluster{{ClockMeasurement: result.ClockMeasurement{Policy: &pol, MeasuredMHz: p(998)}}}}
	cfig, _ := jsonOf(clk)
	r.Phases = []result.Phase{{Name: result.PhaseClock, Status: result.PhaseOK, StartedAt: start, DurationS: 10, Figures: cfig}, heat, cool}
	mem := result.MemFigures{CPU: 0, Core: "Cortex-A53"}
	for kib := int64(4); kib <= 256*1024; kib *= 2 {
		ns := 2.0
		switch {
		case kib > 512:
			ns = 140
		case kib > 32:
			ns = 15
		}
		mem.Latency = append(mem.Latency, result.LatencyRow{SizeBytes: kib * 1024, NS: p(ns)})
	}
	l1, l2 := 1, 2
	// A third step at 8 MiB lies on the flat main-memory part: noise, not
	// marked.
	mem.CacheLevels = []result.CacheLevel{{DetectedBytes: 32 << 10, LatencyNS: 2, SysfsLevel: &l1}, {DetectedBytes: 512 << 10, LatencyNS: 15, SysfsLevel: &l2}, {DetectedBytes: 8 << 20, LatencyNS: 140}}
	mem.SysfsCaches = []result.SysfsCache{{Level: 1, Type: "Data", SizeBytes: 32 << 10}, {Level: 2, Type: "Unified", SizeBytes: 512 << 10}}
	fig, _ := jsonOf(mem)
	r.Phases = append(r.Phases, result.Phase{Name: result.PhaseMemory, Figures: fig})
	return r
}

// TestForResult draws every chart of a result with all kinds of data: the
// SVGs carry the title naming the board, the axis labels with units and
// the legend.
func TestForResult(t *testing.T) {
	r := testResult()
	charts, err := ForResult(r)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"sweep-mips":          {"7-Zip MIPS against clock", "clock (MHz)", "7-Zip total rating (MIPS)", "policy0, 4 threads", "policy0, 1 thread"},
		"sweep-watts":         {"power (W)"},
		"sweep-mips-per-watt": {"efficiency (MIPS/W)"},
		"temperature":         {"temperature (°C)", "time since start (s)", "SoC temperature"},
		"clock":               {"clock (MHz)", "policy0, reported by cpufreq", "firmware clock", "policy0, measured", "throttled"},
		"power":               {"power (W)"},
		"memory-latency-cpu0": {"latency (ns, log scale)", "block size (log scale)", "found: L1 ≤ 32 KiB, 2.0 ns", "found: L2 ≤ 512 KiB, 15.0 ns", "kernel: L1d 32 KiB", "kernel: L2 512 KiB", "Cortex-A53", "1 step the measurement reported not marked"},
	}
	got := map[string]bool{}
	for _, c := range charts {
		got[c.Name] = true
		svg := string(c.SVG)
		if !strings.HasPrefix(strings.TrimSpace(svg), "<?xml") || !strings.Contains(svg, "<svg") {
			t.Errorf("%s: not an SVG", c.Name)
		}
		if strings.Contains(svg, "@font-face") || strings.Contains(svg, "base64") {
			t.Errorf("%s: embeds a font", c.Name)
		}
		d := parseSVG(t, c.SVG)
		if !strings.Contains(c.Title, "Raspberry Pi Zero 2 W Rev 1.0 (BCM2710A1)") || !d.hasText("Raspberry Pi Zero 2 W") {
			t.Errorf("%s: title %q does not name the board", c.Name, c.Title)
		}
		for _, s := range want[c.Name] {
			if !d.hasText(s) {
				t.Errorf("%s: %q missing", c.Name, s)
			}
		}
	}
	for name := range want {
		if !got[name] {
			t.Errorf("chart %s not drawn", name)
		}
	}
}

// TestForResultEmpty: a result without data has no charts and no error.
func TestForResultEmpty(t *testing.T) {
	charts, err := ForResult(&result.Result{})
	if err != nil || len(charts) != 0 {
		t.Errorf("charts %d, err %v", len(charts), err)
	}
	if charts, err := ForResult(nil); err != nil || len(charts) != 0 {
		t.Errorf("nil result: %v %v", charts, err)
	}
}
