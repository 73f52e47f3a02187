package benchrun

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"boardbench/internal/benchtool/sevenzip"
	"boardbench/internal/check"
	"boardbench/internal/finding"
	"boardbench/internal/result"
)

// The recorded series of the contaminated run (another job started while
// openssl ran, on a 2-vCPU machine) and of the same machine quiet: 7zz's
// own outputs (testdata/contaminated) and the monitor's samples, as the
// monitor records them since each window is measured from its start (a
// first sample without shares, then the window's own time).

var series0 = time.Date(2026, 5, 4, 9, 0, 0, 0, time.UTC)

// window is one monitor series: the first sample at start (no shares),
// then one per entry {seconds after start, %cpu, %work}.
func window(start float64, points ...[3]float64) []result.Sample {
	at := func(s float64) time.Time { return series0.Add(time.Duration(s * float64(time.Second))) }
	out := []result.Sample{{Time: at(start)}}
	for _, p := range points {
		cpu, work := p[1], p[2]
		out = append(out, result.Sample{Time: at(start + p[0]), CPUPct: &cpu, WorkPct: &work,
			SysPct: f64(0.6), IowaitPct: f64(0), StealPct: f64(0)})
	}
	return out
}

// sevenZipPhase parses the 7zz outputs of a phase as the run does.
func sevenZipPhase(t *testing.T, name string, cpus []int, files ...string) result.Phase {
	t.Helper()
	figs := result.SevenZipFigures{CPUs: cpus, Threads: len(cpus), Version: "26.02", Flavor: "7-Zip", Runs: []result.SevenZipRun{}}
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join("testdata", "contaminated", f))
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := sevenzip.Parse(string(data))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		figs.Runs = append(figs.Runs, sevenZipRun(&sevenzip.Measurement{Result: parsed}, nil))
	}
	figs.TotMIPS, figs.DriftPct = result.MeanAndDrift(figs.Runs)
	p := result.Phase{Name: name, CPUs: cpus, Status: result.PhaseOK}
	if err := p.SetFigures(figs); err != nil {
		t.Fatal(err)
	}
	return p
}

// recordedRun builds the result of one recorded run and validates it as
// the session does.
func recordedRun(t *testing.T, contaminated bool) *result.Result {
	prefix := "clean-"
	if contaminated {
		prefix = ""
	}
	openssl := result.Phase{Name: result.PhaseOpenSSL, CPUs: []int{0}, Status: result.PhaseOK}
	single := sevenZipPhase(t, result.PhaseSevenZipSingle, []int{1}, prefix+"single-cpu1.txt")
	multi := sevenZipPhase(t, result.PhaseSevenZipMulti, []int{0, 1}, prefix+"multi-run1.txt", prefix+"multi-run2.txt", prefix+"multi-run3.txt")
	after := result.Phase{Name: result.PhaseClockAfterLoad, CPUs: []int{0}, Status: result.PhaseOK}
	if contaminated {
		openssl.Samples = window(0, [3]float64{4, 50.5, 50}, [3]float64{8, 88.2, 49.1}, [3]float64{12, 91.0, 48.5})
		// 7zz at 86 % of cpu1 is 43 % of the machine; the other job took the rest.
		single.Samples = window(12, [3]float64{5, 93.1, 43.0}, [3]float64{10, 95.2, 43.1}, [3]float64{15, 94.0, 43.4}, [3]float64{20, 92.4, 42.5})
		multi.Samples = window(32, [3]float64{10, 100, 63.4}, [3]float64{20, 99.8, 63.6}, [3]float64{30, 99.9, 86.0},
			[3]float64{45, 99.6, 88.9}, [3]float64{60, 99.7, 87.4}, [3]float64{75, 99.5, 87.6})
		// The clock re-check began 8 ms after 7-Zip ended and lasted 0.2 s.
		after.Samples = window(107.008, [3]float64{0.2, 100, 50})
	} else {
		openssl.Samples = window(0, [3]float64{4, 50.6, 50}, [3]float64{8, 50.9, 50}, [3]float64{12, 50.4, 50})
		single.Samples = window(12, [3]float64{5, 50.8, 50}, [3]float64{10, 51.0, 50}, [3]float64{15, 50.7, 50}, [3]float64{20, 50.9, 50})
		multi.Samples = window(32, [3]float64{10, 99.3, 98.4}, [3]float64{20, 99.1, 98.2}, [3]float64{30, 99.4, 98.5},
			[3]float64{45, 99.2, 98.1}, [3]float64{60, 99.3, 98.6}, [3]float64{75, 99.1, 98.2})
		after.Samples = window(107.008, [3]float64{0.2, 51, 50})
	}
	r := &result.Result{Command: "run", Status: result.StatusComplete, Phases: []result.Phase{openssl, single, multi, after}}
	check.Validate(r, check.Facts{NCPU: 2}, result.BuildSummary, nil)
	return r
}

func findingByID(fs []finding.Finding, id string) *finding.Finding {
	for i := range fs {
		if fs[i].ID == id {
			return &fs[i]
		}
	}
	return nil
}

// TestContaminatedRunIsCaught: on the contaminated run (another job took
// 36–50 % of the 2-core machine in every phase) the single- and
// multi-threaded 7-Zip phases are judged disturbed: their figures stay in
// the result, leave the headline, and the result is not valid. 7-Zip's own
// low usage is named too; the clock re-check right after 7-Zip is not
// blamed.
func TestContaminatedRunIsCaught(t *testing.T) {
	r := recordedRun(t, true)
	var got []string
	for _, f := range r.Findings {
		got = append(got, f.ID)
	}
	slices.Sort(got)
	if want := []string{"disturbed_figures", "sevenzip_low_usage"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("findings = %v, want %v", got, want)
	}
	low := findingByID(r.Findings, "sevenzip_low_usage")
	wantLow := []string{
		"7-Zip single-threaded on cpu1 used 86% of 100% CPU: 4172 MIPS",
		"7-Zip multi-threaded run 1 used 127% of 200% CPU: 7692 MIPS",
	}
	if !reflect.DeepEqual(low.Evidence, wantLow) {
		t.Errorf("sevenzip_low_usage evidence = %q, want %q", low.Evidence, wantLow)
	}
	dist := findingByID(r.Findings, "disturbed_figures")
	if want := []string{result.PhaseSevenZipSingle, result.PhaseSevenZipMulti}; !reflect.DeepEqual(dist.Phases, want) {
		t.Errorf("disturbed_figures phases = %v, want %v (not the clock re-check)", dist.Phases, want)
	}
	for _, p := range r.Phases {
		if want := p.Name == result.PhaseSevenZipSingle || p.Name == result.PhaseSevenZipMulti || p.Name == result.PhaseOpenSSL; p.IsDisturbed() != want {
			t.Errorf("%s disturbed = %v, want %v (%+v)", p.Name, p.IsDisturbed(), want, p.Judgement)
		}
	}
	s := r.Summary
	if s.SevenZipMultiMIPS != nil || s.SevenZipMultiMIPSAllRuns == nil || *s.SevenZipMultiMIPSAllRuns != 9443.3 {
		t.Errorf("headline %v (want none), mean of all runs %v (want 9443.3)", s.SevenZipMultiMIPS, s.SevenZipMultiMIPSAllRuns)
	}
	if len(s.HeadlineNotes) == 0 || !strings.Contains(s.HeadlineNotes[0].Reason, "other tasks used") {
		t.Errorf("headline notes = %+v", s.HeadlineNotes)
	}
	if !reflect.DeepEqual(s.SevenZipMultiDisturbedRuns, []int{1, 2, 3}) || len(s.SevenZipSingleMIPS) != 0 ||
		!reflect.DeepEqual(s.SevenZipSingleDisturbedCPUs, []int{1}) {
		t.Errorf("disturbed runs %v, single %v / disturbed %v", s.SevenZipMultiDisturbedRuns, s.SevenZipSingleMIPS, s.SevenZipSingleDisturbedCPUs)
	}
	if s.Valid || !strings.HasPrefix(s.Verdict, "NOT VALID: disturbed_figures") {
		t.Errorf("verdict = %v %q", s.Valid, s.Verdict)
	}
}

// TestCleanRunIsValid: the same machine quiet gives no finding, and the
// headline is the mean of all runs.
func TestCleanRunIsValid(t *testing.T) {
	r := recordedRun(t, false)
	if len(r.Findings) != 0 {
		t.Errorf("findings on a clean run: %+v", r.Findings)
	}
	s := r.Summary
	if s.SevenZipMultiBasis != result.BasisAllRuns || len(s.SevenZipMultiDisturbedRuns) != 0 || *s.SevenZipMultiHeadline() != *s.SevenZipMultiMIPS {
		t.Errorf("basis %q, disturbed %v", s.SevenZipMultiBasis, s.SevenZipMultiDisturbedRuns)
	}
	if len(s.SevenZipSingleDisturbedCPUs) != 0 {
		t.Errorf("single disturbed = %v", s.SevenZipSingleDisturbedCPUs)
	}
}
