package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardbench/internal/benchtool/hpl"
	"boardbench/internal/benchtool/wrapped"
	"boardbench/internal/inventory"
	"boardbench/internal/result"
	"boardbench/internal/testutil/fixture"
)

var at0 = time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)

// timed returns a window of samples: the first at start without shares,
// then one per point {seconds after start, %cpu, %work (<0: unknown),
// %steal}.
func timed(points ...[4]float64) []result.Sample {
	out := []result.Sample{{Time: at0}}
	for _, p := range points {
		s := result.Sample{Time: at0.Add(time.Duration(p[0] * float64(time.Second))), CPUPct: f64(p[1]), SysPct: f64(0.5), IowaitPct: f64(0), StealPct: f64(p[3])}
		if p[2] >= 0 {
			s.WorkPct = f64(p[2])
		}
		out = append(out, s)
	}
	return out
}

func mustSet(t *testing.T, p *result.Phase, v any) {
	t.Helper()
	if err := p.SetFigures(v); err != nil {
		t.Fatal(err)
	}
}

func TestEvidenceRules(t *testing.T) {
	clock := func(samples, disturbed []float64) func(*result.Phase) {
		return func(p *result.Phase) {
			c := result.ClockCluster{ClockMeasurement: result.ClockMeasurement{CPU: func() *int { v := 0; return &v }(),
				MeasuredMHz: f64(samples[1]), Samples: samples, DisturbedSamples: disturbed}}
			if err := p.SetFigures(result.ClockFigures{Clusters: []result.ClockCluster{c}}); err != nil {
				panic(err)
			}
		}
	}
	cases := []struct {
		name   string
		phases []result.Phase
		runs   []float64
		facts  Facts
		want   string
	}{
		{
			name: "work known: the benchmark's own CPU time is not background",
			phases: []result.Phase{phase("7zip-multi", []int{0, 1}, func(p *result.Phase) {
				p.Samples = timed([4]float64{10, 99.5, 98.2, 0}, [4]float64{20, 99.4, 98.0, 0})
			})},
			facts: Facts{NCPU: 2},
		},
		{
			name: "work known: CPU time outside the benchmark during a multi-threaded phase",
			phases: []result.Phase{phase("7zip-multi", []int{0, 1}, func(p *result.Phase) {
				p.Samples = timed([4]float64{10, 100, 63.5, 0}, [4]float64{20, 100, 64, 0})
			})},
			facts: Facts{NCPU: 2},
			want:  "background_activity:warning",
		},
		{
			name: "a passive phase (writes) watches other tasks on purpose",
			phases: []result.Phase{phase(result.PhaseWrites, []int{0, 1}, func(p *result.Phase) {
				p.Passive = true
				p.Samples = timed([4]float64{10, 24, 0.5, 0}, [4]float64{20, 24, 0.5, 0})
			})},
			facts: Facts{NCPU: 2},
		},
		{
			name: "the same samples in an active phase are background activity",
			phases: []result.Phase{phase("storage", []int{0, 1}, func(p *result.Phase) {
				p.Samples = timed([4]float64{10, 24, 0.5, 0}, [4]float64{20, 24, 0.5, 0})
			})},
			facts: Facts{NCPU: 2},
			want:  "background_activity:warning",
		},
		{
			name: "a window shorter than half a second is not judged",
			phases: []result.Phase{phase("clock-after-load", []int{0}, func(p *result.Phase) {
				p.Samples = timed([4]float64{0.2, 100, 50, 0})
			})},
			facts: Facts{NCPU: 2},
		},
		{
			name: "steal time on a VM names the hypervisor",
			phases: []result.Phase{phase("7zip-single", []int{0}, func(p *result.Phase) {
				p.Samples = timed([4]float64{5, 56, 50, 5.5}, [4]float64{10, 55, 50, 4.5})
			})},
			facts: Facts{NCPU: 2, VM: true, Hypervisor: "KVM on Hetzner Cloud"},
			want:  "steal_time:warning",
		},
		{
			name: "a little steal is not a finding",
			phases: []result.Phase{phase("7zip-single", []int{0}, func(p *result.Phase) {
				p.Samples = timed([4]float64{5, 51, 50, 1}, [4]float64{10, 51, 50, 0.5})
			})},
			facts: Facts{NCPU: 2, VM: true},
		},
		{
			name:  "runs falling in order are throttling, not interference",
			runs:  []float64{10432, 10000, 9500},
			facts: Facts{NCPU: 2},
			want:  "falling_scores:warning",
		},
		{
			name:  "runs within the spread",
			runs:  []float64{10432, 10206, 10300},
			facts: Facts{NCPU: 2},
		},
		{
			name:   "every clock sample disturbed",
			phases: []result.Phase{phase("clock", []int{0}, clock([]float64{1719.6, 1732.4, 1745.1}, []float64{1719.6, 1732.4, 1745.1}))},
			facts:  Facts{NCPU: 2},
			want:   "clock_disturbed:warning",
		},
		{
			name:   "some clock samples set aside is a clock",
			phases: []result.Phase{phase("clock", []int{0}, clock([]float64{3639.6, 3640.4, 3641.1}, []float64{1732.4}))},
			facts:  Facts{NCPU: 2},
		},
		{
			name: "a disturbed clock is not compared with the maximum",
			facts: Facts{NCPU: 2, Clusters: []Cluster{{Label: "cpu0-1", Phase: "clock", AdvertisedMaxMHz: f64(3700),
				MeasuredMHz: f64(1732), ReportedMHz: f64(3640), Disturbed: true}}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &result.Result{Phases: c.phases}
			r.Summary.SevenZipMultiRuns = c.runs
			if got := ids(Run(r, c.facts)); got != c.want {
				t.Errorf("findings = %q, want %q", got, c.want)
			}
		})
	}
}

func TestStealEvidenceNamesHypervisor(t *testing.T) {
	r := &result.Result{Phases: []result.Phase{phase("7zip-multi", []int{0, 1}, func(p *result.Phase) {
		p.Samples = timed([4]float64{10, 100, 90, 8}, [4]float64{20, 100, 90, 6})
	})}}
	fs := StealTime(r, Facts{NCPU: 2, VM: true, Hypervisor: "KVM"})
	if len(fs) != 1 || !strings.Contains(strings.Join(fs[0].Evidence, "\n"), "the hypervisor (KVM)") ||
		!strings.Contains(strings.Join(fs[0].Evidence, "\n"), "7zip-multi: 7.0% of the CPU time was stolen") {
		t.Errorf("steal finding = %+v", fs)
	}
}

// TestHPLResidualFailedInvalidates reads HPL's output as the command phase
// of `monitor -- xhpl` holds it: a FAILED residual check invalidates the
// figures, a passed one does not.
func TestHPLResidualFailedInvalidates(t *testing.T) {
	for _, c := range []struct {
		file string
		want string
	}{
		{"hpl-failed.txt", "hpl_residual_failed:invalidates"},
		{"hpl-passed.txt", ""},
	} {
		out, err := os.ReadFile(filepath.Join("..", "benchtool", "wrapped", "testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		figs, ok := wrapped.Recognize([]string{"mpirun", "-np", "4", "xhpl"}, out)
		if !ok || figs.HPL == nil {
			t.Fatalf("%s: not recognised as HPL", c.file)
		}
		p := result.Phase{Name: result.PhaseCommand, CPUs: []int{0, 1, 2, 3}, Status: result.PhaseOK}
		mustSet(t, &p, figs)
		fs := Run(&result.Result{Phases: []result.Phase{p}}, Facts{NCPU: 4})
		if got := ids(fs); got != c.want {
			t.Errorf("%s: findings = %q, want %q", c.file, got, c.want)
		}
		if c.want != "" {
			if ev := strings.Join(fs[0].Evidence, "\n"); !strings.Contains(ev, "WR11C2R4 N=10000 NB=192: residual check FAILED") {
				t.Errorf("evidence = %q", ev)
			}
			if valid, _ := Verdict(fs); valid {
				t.Error("a failed residual check must make the figures not valid")
			}
		}
	}
}

// TestHPLPhaseResidualFailed: the hpl phase of `run --workloads hpl` is
// judged by the same rule, on hpcc's real output with its check passed
// and the same output with HPL's check failed.
func TestHPLPhaseResidualFailed(t *testing.T) {
	real, err := os.ReadFile(filepath.Join("..", "benchtool", "hpl", "testdata", "hpcc-1.5.0-debian12-amd64-np2.hpccoutf.txt"))
	if err != nil {
		t.Fatal(err)
	}
	failed := strings.Replace(string(real), "=        0.0058305 ...... PASSED", "=     2145.6271040 ...... FAILED", 1)
	for _, c := range []struct {
		name, out, want string
	}{
		{"passed", string(real), ""},
		{"failed", failed, "hpl_residual_failed:invalidates"},
	} {
		o, err := hpl.ParseHPCC(c.out)
		if err != nil {
			t.Fatal(err)
		}
		p := result.Phase{Name: result.PhaseHPL, CPUs: []int{0, 1}, Status: result.PhaseOK}
		mustSet(t, &p, o.Figures())
		fs := Run(&result.Result{Phases: []result.Phase{p}}, Facts{NCPU: 2})
		if got := ids(fs); got != c.want {
			t.Errorf("%s: findings = %q, want %q", c.name, got, c.want)
		}
		if c.want != "" {
			if ev := strings.Join(fs[0].Evidence, "\n"); !strings.Contains(ev, "WR11C2R4 N=2000 NB=128: residual check FAILED (scaled residual 2145.627104)") {
				t.Errorf("evidence = %q", ev)
			}
			if fs[0].Phases[0] != result.PhaseHPL {
				t.Errorf("phases = %v", fs[0].Phases)
			}
		}
	}
}

// TestFactsNameTheHypervisor: on the KVM cloud guest fixture the facts
// carry the hypervisor the steal_time finding names; on a board none.
func TestFactsNameTheHypervisor(t *testing.T) {
	vm := fixture.Board(t, "cloud-vm-kvm")
	f := FactsFromInfo(inventory.Collect(vm, inventory.Options{}), nil, nil)
	if !f.VM || f.Hypervisor == "" {
		t.Errorf("VM facts = %v %q, want a named hypervisor", f.VM, f.Hypervisor)
	}
	board := fixture.Board(t, "rock5b")
	if f := FactsFromInfo(inventory.Collect(board, inventory.Options{}), nil, nil); f.VM || f.Hypervisor != "" {
		t.Errorf("board facts = %v %q", f.VM, f.Hypervisor)
	}
}
