package check

import (
	"strings"
	"testing"

	"boardbench/internal/finding"
	"boardbench/internal/result"
)

// zipFigures are 7-Zip figures of threads on cpus with one run per total,
// each reporting usage (% of one thread).
func zipFigures(cpus []int, threads int, usage float64, totals ...float64) result.SevenZipFigures {
	f := result.SevenZipFigures{CPUs: cpus, Threads: threads}
	for _, t := range totals {
		f.Runs = append(f.Runs, result.SevenZipRun{TotMIPS: f64(t), UsagePct: f64(usage)})
	}
	f.TotMIPS, f.DriftPct = result.MeanAndDrift(f.Runs)
	return f
}

// loaded returns ten one-second samples of a phase during which the
// benchmark used own % and other tasks foreign % of all CPUs' time.
func loaded(own, foreign float64) []result.Sample {
	var pts [][4]float64
	for i := 1; i <= 10; i++ {
		pts = append(pts, [4]float64{float64(i), own + foreign, own, 0})
	}
	return timed(pts...)
}

func hasID(fs []finding.Finding, id string) *finding.Finding {
	for i := range fs {
		if fs[i].ID == id {
			return &fs[i]
		}
	}
	return nil
}

// TestForeignLoadRule drives the foreign-share rule with a CPU hog at 3,
// 10, 30 and 60 % of a 2-CPU machine's time, during a multi-threaded and a
// single-threaded 7-Zip phase: below result.ForeignCPUMaxPct the figure
// stands with a note; above it the figure is kept as a run, marked, left
// out of the headline (null with a reason), and the result is not valid.
func TestForeignLoadRule(t *testing.T) {
	for _, hog := range []float64{3, 10, 30, 60} {
		multi := phase(result.PhaseSevenZipMulti, []int{0, 1}, func(p *result.Phase) {
			mustSet(t, p, zipFigures([]int{0, 1}, 2, 190, 5000, 5050, 4980))
			p.Samples = loaded(100-hog, hog)
		})
		single := phase(result.PhaseSevenZipSingle, []int{1}, func(p *result.Phase) {
			mustSet(t, p, zipFigures([]int{1}, 1, 99, 2500))
			p.Samples = loaded(50, hog)
		})
		r := &result.Result{Command: "run", Status: result.StatusComplete, Phases: []result.Phase{single, multi}}
		Validate(r, Facts{NCPU: 2}, result.BuildSummary, nil)
		s := r.Summary
		for _, p := range r.Phases {
			if p.Judgement == nil || p.Judgement.ForeignCPUPct == nil || *p.Judgement.ForeignCPUPct != hog {
				t.Errorf("hog %.0f%%: %s judgement %+v, want a foreign share of %.0f%%", hog, p.Name, p.Judgement, hog)
			}
		}
		if hog < result.ForeignCPUMaxPct {
			if !s.Valid || s.SevenZipMultiMIPS == nil || len(s.SevenZipSingleMIPS) != 1 || len(s.Excluded) != 0 {
				t.Errorf("hog %.0f%%: the figures must stand: valid %v, multi %v, single %v, excluded %+v", hog, s.Valid, s.SevenZipMultiMIPS, s.SevenZipSingleMIPS, s.Excluded)
			}
			if bg := hasID(r.Findings, "background_activity"); bg == nil || bg.Severity != finding.Warning {
				t.Errorf("hog %.0f%%: no background_activity note: %s", hog, ids(r.Findings))
			}
			if !strings.Contains(r.Phases[0].Judgement.Reason, "the figure stands") {
				t.Errorf("hog %.0f%%: judgement reason %q", hog, r.Phases[0].Judgement.Reason)
			}
			continue
		}
		if s.Valid || !strings.HasPrefix(s.Verdict, "NOT VALID: disturbed_figures") {
			t.Errorf("hog %.0f%%: verdict %v %q, want not valid by disturbed_figures", hog, s.Valid, s.Verdict)
		}
		if s.SevenZipMultiMIPS != nil || s.SevenZipMultiMIPSAllRuns == nil || len(s.SevenZipMultiRuns) != 3 || len(s.SevenZipSingleMIPS) != 0 {
			t.Errorf("hog %.0f%%: headline multi %v (want null), all runs %v, runs %v, single %v", hog, s.SevenZipMultiMIPS, s.SevenZipMultiMIPSAllRuns, s.SevenZipMultiRuns, s.SevenZipSingleMIPS)
		}
		if len(s.Excluded) != 4 || len(s.HeadlineNotes) != 2 || !strings.Contains(s.HeadlineNotes[0].Reason, "other tasks used") {
			t.Errorf("hog %.0f%%: excluded %+v, notes %+v", hog, s.Excluded, s.HeadlineNotes)
		}
		if hasID(r.Findings, "background_activity") != nil {
			t.Errorf("hog %.0f%%: a disturbed phase is also noted as background activity: %s", hog, ids(r.Findings))
		}
	}
}

// TestLoneMultiThreadedRunIsJudged: one multi-threaded run at 55 % of its
// CPUs on a quiet machine is disturbed by its own evidence.
func TestLoneMultiThreadedRunIsJudged(t *testing.T) {
	multi := phase(result.PhaseSevenZipMulti, []int{0, 1}, func(p *result.Phase) {
		mustSet(t, p, zipFigures([]int{0, 1}, 2, 110, 3278))
		p.Samples = loaded(55, 0)
	})
	r := &result.Result{Command: "run", Status: result.StatusComplete, Phases: []result.Phase{multi}}
	Validate(r, Facts{NCPU: 2}, result.BuildSummary, nil)
	s := r.Summary
	if s.SevenZipMultiMIPS != nil || s.Valid || len(s.Excluded) != 1 || !strings.Contains(s.Excluded[0].Reason, "110% of the 200%") {
		t.Errorf("lone run at 55%%: headline %v, valid %v, excluded %+v", s.SevenZipMultiMIPS, s.Valid, s.Excluded)
	}
	if hasID(r.Findings, "sevenzip_low_usage") == nil || hasID(r.Findings, "disturbed_figures") == nil {
		t.Errorf("findings %s", ids(r.Findings))
	}
}

// TestSweepStepIsJudged: a sweep step whose 7-Zip used 24 % of its CPUs
// has no figure in the sweep table, and the result is not valid.
func TestSweepStepIsJudged(t *testing.T) {
	step := func(usage float64) result.Phase {
		return phase(result.PhaseSweepMulti, []int{0, 1}, func(p *result.Phase) {
			mustSet(t, p, result.SweepFigures{RequestedMHz: f64(1500), MeasuredMHz: f64(1481), SevenZip: zipFigures([]int{0, 1}, 2, usage, 3000)})
			p.Samples = loaded(usage/2, 0)
		})
	}
	summarize := func(ps []result.Phase) result.Summary {
		s := result.BuildSummary(ps)
		s.SweepSummary = result.BuildSweepSummary(ps)
		return s
	}
	r := &result.Result{Command: "sweep", Status: result.StatusComplete, Phases: []result.Phase{step(190), step(48)}}
	Validate(r, Facts{NCPU: 2}, summarize, nil)
	rows := r.Summary.Sweep
	if len(rows) != 2 || rows[0].Disturbed || rows[0].MIPS == nil || !rows[1].Disturbed || rows[1].MIPS != nil || rows[1].MeasuredMHz != nil {
		t.Fatalf("sweep rows %+v", rows)
	}
	if r.Summary.Valid || hasID(r.Findings, "disturbed_figures") == nil {
		t.Errorf("verdict %v %q, findings %s", r.Summary.Valid, r.Summary.Verdict, ids(r.Findings))
	}
}

// TestFallingScoresWithoutSensors: on a machine without clock or
// temperature readings, falling scores are not called throttling.
func TestFallingScoresWithoutSensors(t *testing.T) {
	mk := func(mod func(*result.Phase)) *result.Result {
		multi := phase(result.PhaseSevenZipMulti, []int{0, 1}, func(p *result.Phase) {
			mustSet(t, p, zipFigures([]int{0, 1}, 2, 190, 3600, 3300, 3012))
			p.Samples = loaded(99, 0)
			if mod != nil {
				mod(p)
			}
		})
		r := &result.Result{Command: "run", Status: result.StatusComplete, Phases: []result.Phase{multi}}
		Validate(r, Facts{NCPU: 2}, result.BuildSummary, nil)
		return r
	}
	r := mk(nil)
	f := hasID(r.Findings, "falling_scores")
	if f == nil || !strings.Contains(f.Title, "the cause cannot be told here") || strings.Contains(strings.ToLower(f.Title+f.Advice), "throttl") {
		t.Errorf("no sensors: %+v", f)
	}
	if hasID(r.Findings, "sevenzip_spread") != nil {
		t.Errorf("falling scores also called a spread: %s", ids(r.Findings))
	}
	// the same with a sampled clock that fell: throttling, with evidence
	r = mk(func(p *result.Phase) {
		for i := range p.Samples {
			mhz := 1800.0 - 40*float64(i)
			p.Samples[i].ClockMHz = []*float64{&mhz}
		}
	})
	if f := hasID(r.Findings, "falling_scores"); f == nil || !strings.HasPrefix(f.Title, "Throttling:") || !strings.Contains(strings.Join(f.Evidence, "\n"), "→") {
		t.Errorf("clock fell: %+v", f)
	}
	// a steady clock: the scores fell for another reason
	r = mk(func(p *result.Phase) {
		for i := range p.Samples {
			mhz := 1800.0
			p.Samples[i].ClockMHz = []*float64{&mhz}
		}
	})
	if f := hasID(r.Findings, "falling_scores"); f == nil || !strings.Contains(f.Title, "with the clock steady") {
		t.Errorf("steady clock: %+v", f)
	}
}

// TestSweepPassesAreJudged: three passes at one clock, the second measured
// while other tasks took 20 % of the CPU time. JudgePhase marks that pass
// disturbed; the row is the mean of the other two with their range, its
// power their duration-weighted mean, the set-aside pass is listed and
// excluded without being lost (a warning, the result stays valid). The
// same phases without pass numbers (a result before schema 1.2) are three
// rows, the disturbed one losing its figure.
func TestSweepPassesAreJudged(t *testing.T) {
	pass := func(n int, mips, foreign, watts, seconds float64) result.Phase {
		return phase(result.PhaseSweepMulti, []int{0, 1}, func(p *result.Phase) {
			mustSet(t, p, result.SweepFigures{Pass: n, Policy: func() *int { v := 0; return &v }(), RequestedMHz: f64(1500), MeasuredMHz: f64(1480 + float64(n)),
				SevenZip: zipFigures([]int{0, 1}, 2, 195, mips)})
			p.Samples = loaded(95-foreign, foreign)
			p.PowerW, p.DurationS = f64(watts), seconds
		})
	}
	summarize := func(ps []result.Phase) result.Summary {
		s := result.BuildSummary(ps)
		s.SweepSummary = result.BuildSweepSummary(ps)
		return s
	}
	phases := []result.Phase{pass(1, 2980, 0, 3, 10), pass(2, 2500, 20, 9, 10), pass(3, 3020, 0, 4, 30)}
	r := &result.Result{Command: "sweep", Status: result.StatusComplete, Phases: phases}
	Validate(r, Facts{NCPU: 2}, summarize, nil)
	if !r.Phases[1].IsDisturbed() || r.Phases[0].IsDisturbed() || r.Phases[2].IsDisturbed() {
		t.Fatalf("judgements %+v %+v %+v", r.Phases[0].Judgement, r.Phases[1].Judgement, r.Phases[2].Judgement)
	}
	rows := r.Summary.Sweep
	if len(rows) != 1 {
		t.Fatalf("%d rows, want one for the three passes: %+v", len(rows), rows)
	}
	row := rows[0]
	if row.Passes != 3 || row.Disturbed || row.MIPS == nil || *row.MIPS != 3000 || *row.MIPSMin != 2980 || *row.MIPSMax != 3020 ||
		len(row.DisturbedPasses) != 1 || row.DisturbedPasses[0] != 2 || !strings.Contains(row.Reason, "20.0%") {
		t.Errorf("row %+v", row)
	}
	// measured clock: mean of passes 1 and 3; power: (3×10 + 4×30) / 40
	if row.MeasuredMHz == nil || *row.MeasuredMHz != 1482 || row.PowerW == nil || *row.PowerW != 3.75 || row.MIPSPerW == nil || *row.MIPSPerW != 800 {
		t.Errorf("row clock %v power %v MIPS/W %v", row.MeasuredMHz, row.PowerW, row.MIPSPerW)
	}
	if len(r.Summary.Excluded) != 2 || r.Summary.Excluded[0].Run != 2 || r.Summary.Excluded[0].Lost {
		t.Errorf("excluded %+v", r.Summary.Excluded)
	}
	if !r.Summary.Valid || hasID(r.Findings, "disturbed_runs") == nil || hasID(r.Findings, "disturbed_figures") != nil {
		t.Errorf("verdict %v %q, findings %s", r.Summary.Valid, r.Summary.Verdict, ids(r.Findings))
	}

	// The same phases without pass numbers: one row each.
	var old []result.Phase
	for i, n := range []float64{2980, 2500, 3020} {
		p := pass(0, n, []float64{0, 20, 0}[i], 3, 10)
		old = append(old, p)
	}
	r = &result.Result{Command: "sweep", Status: result.StatusComplete, Phases: old}
	Validate(r, Facts{NCPU: 2}, summarize, nil)
	if rows := r.Summary.Sweep; len(rows) != 3 || !rows[1].Disturbed || rows[1].MIPS != nil || rows[0].Passes != 1 || rows[0].MIPSMin == nil {
		t.Errorf("rows without pass numbers %+v", rows)
	}
	if r.Summary.Valid || hasID(r.Findings, "disturbed_figures") == nil {
		t.Errorf("without pass numbers: verdict %v %q", r.Summary.Valid, r.Summary.Verdict)
	}
}
