package runtext

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardbench/internal/check"
	"boardbench/internal/finding"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/result"
)

// quickClockDisturbed is a `run --quick` on a 2-vCPU KVM guest running at
// about 3640 MHz whose first clock check had every sample disturbed (it
// read 1732 MHz), while the clock re-check after load was clean. The
// summary and findings come from result.BuildSummary and check.Run.
func quickClockDisturbed() *result.Result {
	in := &inventory.Info{SchemaVersion: "1.0", CollectedAt: t0, Root: "/"}
	in.SoC.Guess = "Intel Xeon Processor (Sapphire Rapids)"
	in.OS.Distro.PrettyName = "Debian GNU/Linux 12 (bookworm)"
	in.OS.Kernel.Release = "6.1.0-31-cloud-amd64"
	in.OS.Kernel.Machine = "x86_64"
	in.OS.Kernel.Arch = "amd64"
	in.OS.Userland.Arch = "amd64"
	in.OS.Userland.Bits = iptr(64)
	for i := 0; i < 2; i++ {
		in.CPU.CPUs = append(in.CPU.CPUs, cpu.CPU{ID: i, Core: "Xeon"})
	}
	in.CPU.Clusters = []cpu.Cluster{{ID: 0, CPUs: []int{0, 1}, Core: "Xeon"}}
	yes := true
	in.VM.IsVM, in.VM.Hypervisor = &yes, "KVM"
	r := &result.Result{
		SchemaVersion: "1.0", Command: "run", Status: result.StatusComplete,
		StartedAt: t0, FinishedAt: tptr(t0.Add(21 * time.Second)),
		Options: map[string]any{"quick": true},
		Info:    in,
		Tools: []result.ToolVersion{
			{Name: "7-Zip", Path: "/usr/bin/7zz", Version: "26.02"},
			{Name: "openssl", Path: "/usr/bin/openssl", Version: "3.0.15"},
		},
		Tuning:  result.Tuning{Note: "nothing to tune: no cpufreq policy or devfreq device found"},
		Monitor: result.MonitorInfo{Policies: []result.Policy{}, Power: []result.Sensor{}, Steal: true},
	}
	r.Tool.Name, r.Tool.Version = "boardbench", "0.1.0"
	vmSample := func(s float64, cpuPct, work *float64) result.Sample {
		smp := result.Sample{Time: t0.Add(time.Duration(s * float64(time.Second))), Load1: f64(0.4),
			CPUPct: cpuPct, WorkPct: work, SwapUsedBytes: i64(0)}
		if cpuPct != nil {
			smp.SysPct, smp.UsrPct, smp.NicePct, smp.IowaitPct, smp.IRQPct, smp.StealPct = f64(0.5), f64(*cpuPct-0.5), f64(0), f64(0), f64(0), f64(0.3)
		}
		return smp
	}
	clock := func(name string, at float64, samples []float64, disturbed bool, measured float64) result.Phase {
		p := phaseAt(name, "Clock of one CPU per cluster", []int{0}, at, 0.3)
		c := result.ClockCluster{ClockMeasurement: result.ClockMeasurement{
			Cluster: iptr(0), CPUs: []int{0, 1}, Core: "Xeon", CPU: iptr(0),
			MeasuredMHz: f64(measured), Samples: samples, DisturbedSamples: []float64{}, SpreadPct: f64(0.8),
		}, Method: "asm-amd64", Certain: true}
		if disturbed {
			c.DisturbedSamples = samples
		}
		mustFigures(&p, result.ClockFigures{Clusters: []result.ClockCluster{c}})
		p.Samples = []result.Sample{vmSample(at, nil, nil), vmSample(at+0.3, f64(50.2), f64(50))}
		p.SwapIn, p.SwapOut = u64(0), u64(0)
		return p
	}
	r.Phases = append(r.Phases, clock(result.PhaseClock, 0, []float64{1719.6, 1732.4, 1745.1}, true, 1732.4))
	p := phaseAt(result.PhaseSevenZipSingle, "7-Zip single-threaded on cpu1 (Xeon)", []int{1}, 0.4, 6)
	f := sevenZipFigures([]int{1}, "Xeon", 1, 4374)
	f.Version, f.Flavor, f.Args = "26.02", "7-Zip", []string{"b", "1", "-mmt1", "-md18"}
	mustFigures(&p, f)
	p.Samples = []result.Sample{vmSample(0.4, nil, nil), vmSample(6.4, f64(50.6), f64(50))}
	r.Phases = append(r.Phases, p)
	p = phaseAt(result.PhaseSevenZipMulti, "7-Zip multi-threaded on all CPUs (cpu0-1), one run", []int{0, 1}, 6.4, 12)
	f = sevenZipFigures([]int{0, 1}, "Xeon", 2, 8851)
	f.Version, f.Flavor, f.Args = "26.02", "7-Zip", []string{"b", "1", "-mmt2", "-md18"}
	f.Runs[0].UsagePct = f64(172)
	mustFigures(&p, f)
	p.Samples = []result.Sample{vmSample(6.4, nil, nil), vmSample(18.4, f64(98.9), f64(98))}
	r.Phases = append(r.Phases, p)
	r.Phases = append(r.Phases, clock(result.PhaseClockAfterLoad, 18.5, []float64{3639.8, 3641.2, 3640.5}, false, 3640.5))

	r.Summary = result.BuildSummary(r.Phases)
	r.Quick = true
	check.Validate(r, check.FactsFromInfo(in, []int{0, 1}, []int{0, 1}), result.BuildSummary, nil)
	return r
}

// TestQuickSummaryClockAllDisturbed renders the --quick result whose clock
// samples were all disturbed: the summary must not show 1732 MHz as the
// clock, and a finding must say why. The golden file holds the whole
// report.
func TestQuickSummaryClockAllDisturbed(t *testing.T) {
	r := quickClockDisturbed()
	var b bytes.Buffer
	Render(&b, r, false)
	got := b.String()
	golden := filepath.Join("testdata", "quick-clock-disturbed.golden")
	if *update {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run with -update after checking):\n%s", golden, firstDiff(got, string(want)))
	}
	summary, _, _ := strings.Cut(got, "Validation findings")
	for _, line := range strings.Split(summary, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "cpu0") && (strings.Contains(line, "1732") || !strings.Contains(line, "disturbed")) {
			t.Errorf("the summary's clock cell shows the disturbed reading as a figure: %q", line)
		}
	}
	if !strings.Contains(summary, "clock on cpu0: no figure: every sample was disturbed") {
		t.Errorf("the summary does not say that the clock is not a figure:\n%s", summary)
	}
	if !strings.Contains(got, "clock_disturbed: ") {
		t.Error("no clock_disturbed finding")
	}
	if len(r.Summary.ClockMHz) != 0 {
		t.Errorf("summary clock = %v, want none", r.Summary.ClockMHz)
	}
}

// TestSevenZipMultiLineBasis checks that the headline names the mean it
// uses when 7-Zip's own usage shows disturbed runs.
func TestSevenZipMultiLineBasis(t *testing.T) {
	runs := func(usage ...float64) *result.Result {
		f := sevenZipFigures([]int{0, 1}, "", 2, 7692, 10432, 10206)
		for i, u := range usage {
			f.Runs[i].UsagePct = f64(u)
		}
		p := phaseAt(result.PhaseSevenZipMulti, "7-Zip multi", []int{0, 1}, 0, 90)
		mustFigures(&p, f)
		r := &result.Result{Command: "run", Status: result.StatusComplete, Phases: []result.Phase{p}}
		r.Summary = result.BuildSummary(r.Phases)
		return r
	}
	cases := []struct {
		usage []float64
		want  string
	}{
		{[]float64{127, 178, 175}, "10319 MIPS (mean of the valid runs; run 1 disturbed, left out; 3 runs: 7692, 10432, 10206 MIPS)"},
		// a lone run's own usage at 55 % of its CPUs is judged too
		{[]float64{110, 110, 110}, "no figure: every multi-threaded 7-Zip run was disturbed (7-Zip's own CPU usage was 110% of the 200% it was given) (3 runs: 7692, 10432, 10206 MIPS, not figures)"},
		{[]float64{127, 129, 130}, "9443 MIPS (mean of 3 runs: 7692, 10432, 10206 MIPS)"},
		{[]float64{176, 178, 175}, "9443 MIPS (mean of 3 runs: 7692, 10432, 10206 MIPS)"},
	}
	for _, c := range cases {
		if got := sevenZipMultiLine(runs(c.usage...)); got != c.want {
			t.Errorf("usage %v:\n got %s\nwant %s", c.usage, got, c.want)
		}
	}
	// A phase the monitor saw disturbed is marked even when 7-Zip's usage
	// cannot tell (one run, or every run disturbed alike).
	r := runs(127, 129, 130)
	r.Findings = []finding.Finding{{ID: "background_activity", Severity: finding.Warning, Phases: []string{result.PhaseSevenZipMulti}}}
	if got, want := sevenZipMultiLine(r), "9443 MIPS (mean of 3 runs: 7692, 10432, 10206 MIPS); DISTURBED: background_activity"; got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}

// TestDisturbedSingleThreadedIsMarked: a single-threaded 7-Zip figure whose
// own usage was low is marked in the per-core-type table, with the reason.
func TestDisturbedSingleThreadedIsMarked(t *testing.T) {
	f := sevenZipFigures([]int{1}, "Xeon", 1, 4172)
	f.Runs[0].UsagePct = f64(86)
	p := phaseAt(result.PhaseSevenZipSingle, "7-Zip single-threaded on cpu1 (Xeon)", []int{1}, 0, 20)
	mustFigures(&p, f)
	r := &result.Result{Command: "run", Status: result.StatusComplete, Phases: []result.Phase{p}}
	r.Summary = result.BuildSummary(r.Phases)
	out := render(r, false)
	summary, _, _ := strings.Cut(out, "Validation findings")
	if strings.Contains(summary, "4172 MIPS ") || !strings.Contains(summary, "disturbed") || !strings.Contains(out, "7-Zip single on cpu1: no figure: it read 4172 MIPS, but 7-Zip's own CPU usage was 86%") {
		t.Errorf("disturbed single-threaded figure not marked:\n%s", out)
	}
}
