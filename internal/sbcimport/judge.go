package sbcimport

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/check"
	"boardbench/internal/finding"
	"boardbench/internal/result"
)

// judge gives an imported result boardbench's verdict: the problems the
// log's own validation reports are warnings (the log's tool saw them but
// did not measure them in a way boardbench can weigh), and boardbench's
// rules are applied to the evidence the log holds — its monitor lines
// during the single-threaded benchmarks (CPU time beyond one busy CPU is
// other tasks', judged against result.ForeignCPUMaxPct) and 7-Zip's own
// usage figures. A figure those rules find disturbed makes the result not
// valid, always with a finding that says why; a log its tool judged clean
// is otherwise never made "not valid" by a stricter reading. A log with
// neither a validation section nor monitor lines is not validated.
func (l *Log) judge(r *result.Result) {
	ncpu := 0
	if r.Info != nil {
		ncpu = len(r.Info.CPU.CPUs)
	}
	fs := append([]finding.Finding{}, r.Findings...)
	var lost, noted, lostPhases, notedPhases []string
	for _, m := range l.Monitoring {
		name, ok := singleThreadedPhase(m.While)
		if !ok || ncpu < 2 {
			continue
		}
		cpuPct, ok := meanMonitorColumn(m, "%cpu")
		if !ok {
			continue
		}
		foreign := result.Round1(math.Max(0, cpuPct-100/float64(ncpu)))
		line := fmt.Sprintf("while running %s: the log's monitor lines show %.1f%% CPU, %.1f%% of all CPUs' time beyond one busy CPU of %d",
			m.While, cpuPct, foreign, ncpu)
		switch {
		case foreign > result.ForeignCPUMaxPct:
			lost = append(lost, line+fmt.Sprintf(" (more than %.0f%%): its figures are not figures", result.ForeignCPUMaxPct))
			lostPhases = append(lostPhases, name)
			markPhases(r.Phases, name, foreign, true)
		case foreign > check.OutsideLimitPct(ncpu):
			noted = append(noted, line+fmt.Sprintf(" (below %.0f%%: the figures stand)", result.ForeignCPUMaxPct))
			notedPhases = append(notedPhases, name)
			markPhases(r.Phases, name, foreign, false)
		default:
			markPhases(r.Phases, name, foreign, false)
		}
	}
	for _, p := range r.Phases {
		var f result.SevenZipFigures
		if (p.Name != result.PhaseSevenZipSingle && p.Name != result.PhaseSevenZipMulti) || json.Unmarshal(p.Figures, &f) != nil {
			continue
		}
		if p.Name == result.PhaseSevenZipSingle {
			f.Threads = 1 // the log's banner names the machine's threads; the run used one
		}
		low := f.LowUsageRuns()
		if len(low) == 0 {
			continue
		}
		for _, run := range low {
			line := fmt.Sprintf("%s run %d: 7-Zip's own CPU usage was %.0f%% of the %.0f%% it was given (%.0f MIPS)", p.Name, run.Run, run.UsagePct, run.ExpectedPct, run.TotMIPS)
			if p.Name == result.PhaseSevenZipSingle || len(low) == countRuns(f) {
				lost = append(lost, line)
				lostPhases = append(lostPhases, p.Name)
			} else {
				noted = append(noted, line+"; the other runs are not disturbed")
				notedPhases = append(notedPhases, p.Name)
			}
		}
	}
	if len(lost) > 0 {
		fs = append(fs, finding.Finding{
			ID: "disturbed_figures", Severity: finding.Invalidates,
			Title:    "Figures of the log measured while other tasks took the CPU are not figures",
			Evidence: lost, Phases: dedupe(lostPhases),
			Advice: "The log's own evidence shows other work during these benchmarks; the imported figures are kept as the log printed them, " +
				"but they do not compare. Measure the board again on a quiet system.",
		})
	}
	if len(noted) > 0 {
		fs = append(fs, finding.Finding{
			ID: "background_activity", Severity: finding.Warning,
			Title:    "Background activity during the log's benchmarks",
			Evidence: noted, Phases: dedupe(notedPhases),
			Advice: "Below the threshold the figures stand; a quieter system gives figures that compare better.",
		})
	}
	if !l.HasValidation {
		fs = append(fs, finding.Finding{
			ID: NoValidationFindingID, Severity: finding.Info,
			Title:    "The imported log has no validation section",
			Evidence: []string{"judged by boardbench's rules from the log's monitor lines and 7-Zip's own usage only"},
			Advice:   "Logs of newer versions of the tool validate themselves; this one can only be judged from its evidence.",
		})
	}
	slices.SortStableFunc(fs, func(a, b finding.Finding) int { return b.Severity.Rank() - a.Severity.Rank() })
	r.Findings = fs
	s := &r.Summary
	switch {
	case !l.HasValidation && len(l.Monitoring) == 0:
		s.Valid, s.Verdict = false, "not validated: the imported log has neither a validation section nor monitor lines"
	default:
		s.Valid, s.Verdict = check.Verdict(fs)
		if s.Valid && !strings.HasPrefix(s.Verdict, "valid with warnings") {
			s.Verdict = "valid: " + NoProblem
		}
	}
}

// NoValidationFindingID is the (info) finding of a log without a
// validation section.
const NoValidationFindingID = "imported_no_validation"

// NoProblem ends the verdict of an imported log in which nothing was found.
const NoProblem = "neither the log's own validation nor boardbench's rules on its evidence find a problem"

// singleThreadedPhase maps a monitor block of a single-threaded benchmark
// to the phase holding its figures ("" for ramlat, whose figures are the
// imported-log phase's).
func singleThreadedPhase(while string) (string, bool) {
	w := strings.ToLower(while)
	switch {
	case strings.Contains(w, "7-zip single core"):
		return result.PhaseSevenZipSingle, true
	case strings.Contains(w, "tinymembench"):
		return result.PhaseMemory, true
	case strings.Contains(w, "openssl") && !strings.Contains(w, "parallel"):
		return result.PhaseOpenSSL, true
	case strings.Contains(w, "ramlat"):
		return result.PhaseImportedLog, true
	}
	return "", false
}

// markPhases records the judgement of the log's phases of one kind.
func markPhases(phases []result.Phase, name string, foreign float64, disturbed bool) {
	for i := range phases {
		if phases[i].Name != name || name == result.PhaseImportedLog {
			continue
		}
		v := foreign
		j := &result.Judgement{ForeignCPUPct: &v, Disturbed: disturbed}
		if disturbed {
			j.Reason = result.ForeignReason(foreign) + " (from the log's monitor lines)"
		}
		phases[i].Judgement = j
	}
}

func countRuns(f result.SevenZipFigures) int {
	n := 0
	for _, r := range f.Runs {
		if r.TotMIPS != nil && r.UsagePct != nil {
			n++
		}
	}
	return n
}

func dedupe(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	return out
}

// meanMonitorColumn is the mean of a monitor column over a block's rows,
// the first (taken before the benchmark started) left out; false without
// the column or with fewer than three rows.
func meanMonitorColumn(m result.ImportedMonitoring, col string) (float64, bool) {
	ci := slices.Index(m.Columns, col)
	if ci < 0 || len(m.Rows) < 3 {
		return 0, false
	}
	var sum float64
	var n int
	for _, row := range m.Rows[1:] {
		if ci >= len(row) {
			continue
		}
		if v, err := strconv.ParseFloat(strings.TrimSuffix(row[ci], "%"), 64); err == nil && !math.IsNaN(v) && !math.IsInf(v, 0) {
			sum += v
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}
