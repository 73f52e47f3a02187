package check

import (
	"fmt"
	"slices"
	"strings"

	"boardbench/internal/finding"
	"boardbench/internal/result"
)

// The kinds of phase JudgePhase tells apart.
const (
	// kindFigure: the phase's figures are CPU-bound measurements; above
	// result.ForeignCPUMaxPct of foreign CPU time they are not figures.
	kindFigure = iota
	// kindNoteOnly: the foreign share is noted but never excludes the
	// figures, because part of the phase's own work runs outside its
	// processes (the network stack and storage I/O in kernel threads) or
	// because the measurement judges each sample itself (the clock probe).
	kindNoteOnly
	// kindNotJudged: passive phases and imported logs' text.
	kindNotJudged
)

func phaseKind(p result.Phase) int {
	switch {
	case p.Passive || p.Name == result.PhaseImportedLog:
		return kindNotJudged
	case isNetPhase(p.Name), p.Name == result.PhaseStorage, p.Name == result.PhaseStorageFio,
		p.Name == result.PhaseClock, p.Name == result.PhaseClockAfterLoad, strings.HasPrefix(p.Name, "net-interfaces"):
		return kindNoteOnly
	}
	return kindFigure
}

// isIOPhase reports whether interrupt time is part of the phase's own work.
func isIOPhase(p result.Phase) bool {
	return isNetPhase(p.Name) || p.Name == result.PhaseStorage || p.Name == result.PhaseStorageFio
}

// JudgePhase judges one phase of a machine with ncpu online CPUs and sets
// its Judgement: the mean share of all CPUs' time used outside the
// benchmark's own processes (steal time excluded, and interrupt time for
// storage and network phases, whose work runs there) and by them. Where the
// monitor did not know the benchmark's processes (older results), a
// single-CPU phase's foreign share is its CPU usage above one busy CPU.
// Above result.ForeignCPUMaxPct the phase is disturbed: its figures are
// not figures (for the phases whose own work partly runs outside its
// processes, and for clock phases, whose probe judges each sample, it is a
// note). A phase that did not end ok, a passive phase and the text of an
// imported log are not judged (Judgement left nil).
func JudgePhase(p *result.Phase, ncpu int) {
	if p.Status != result.PhaseOK || phaseKind(*p) == kindNotJudged {
		return
	}
	if p.Judgement != nil && p.Judgement.Disturbed && len(p.Samples) == 0 {
		return // judged from evidence this result no longer holds (an import)
	}
	j := &result.Judgement{}
	p.Judgement = j
	m, ok := windowMeans(*p)
	if !ok || ncpu < 1 {
		return
	}
	var foreign float64
	switch {
	case m.work != nil:
		foreign = m.cpu - m.steal - *m.work
		own := result.Round1(*m.work)
		j.OwnCPUPct = &own
	case len(p.CPUs) == 1 && ncpu >= 2:
		foreign = m.cpu - m.steal - 100/float64(ncpu)
	default:
		return
	}
	if isIOPhase(*p) {
		foreign -= m.irq
	}
	foreign = result.Round1(max(0, foreign))
	j.ForeignCPUPct = &foreign
	switch {
	case foreign > result.ForeignCPUMaxPct && phaseKind(*p) == kindFigure:
		j.Disturbed = true
		j.Reason = result.ForeignReason(foreign)
	case foreign > result.ForeignCPUMaxPct:
		j.Reason = fmt.Sprintf("other tasks used %.1f%% of the CPU time (kernel threads doing this phase's own I/O, or its probe's disturbed samples, count here): noted, not excluded", foreign)
	case foreign > OutsideLimitPct(ncpu):
		j.Reason = fmt.Sprintf("other tasks used %.1f%% of the CPU time, below the %.0f%% threshold: the figure stands", foreign, result.ForeignCPUMaxPct)
	}
}

// Judge judges every phase of r (JudgePhase) with the machine's facts. Run
// it before the summary is computed: the summary leaves the figures of
// disturbed phases out of its headlines.
func Judge(r *result.Result, f Facts) {
	for i := range r.Phases {
		JudgePhase(&r.Phases[i], f.NCPU)
	}
}

// Validate is the whole judgement of a finished result: it judges every
// phase (Judge), recomputes the summary with summarize (nil keeps it) so
// that disturbed figures leave the headlines, runs every rule (Run) and
// the command's extra findings, sorts the findings by severity and sets
// r.Findings and the verdict (Summary.Valid, Summary.Verdict). Every
// measuring command's engine calls it once at the end.
func Validate(r *result.Result, f Facts, summarize func([]result.Phase) result.Summary, extra func(*result.Result) []finding.Finding) {
	Judge(r, f)
	if summarize != nil {
		r.Summary = summarize(r.Phases)
	}
	fs := Run(r, f)
	if extra != nil {
		fs = append(fs, extra(r)...)
	}
	slices.SortStableFunc(fs, func(a, b finding.Finding) int { return b.Severity.Rank() - a.Severity.Rank() })
	if fs == nil {
		fs = []finding.Finding{}
	}
	r.Findings = fs
	r.Summary.Valid, r.Summary.Verdict = Verdict(fs)
}

// secondaryPhase reports whether the phase named name holds figures no
// headline takes: when they are disturbed the result loses no headline
// figure, and the finding is a warning.
func secondaryPhase(name string) bool {
	switch name {
	case result.PhaseSevenZipCluster, result.PhaseOpenSSLAllCores, result.PhaseMemoryAllCores,
		result.PhaseSustained, result.PhaseOpenSSLEVP, result.PhaseCryptsetup,
		result.PhaseZstd, result.PhaseArmcap, result.PhaseLlama, // run --workloads: extras
		result.PhaseHPL, result.PhaseSSHCiphers:
		return true
	}
	return false
}

// DisturbedFigures: figures measured while other tasks took more than
// result.ForeignCPUMaxPct of the CPU time (or while 7-Zip's own usage shows
// it did not get its CPUs) are not figures. They stay in the result and
// leave the headline; when a headline figure is lost that way the result
// is not valid. Runs left out while the headline stands on the others are
// a warning.
func DisturbedFigures(r *result.Result, _ Facts) []finding.Finding {
	var lost, lostPhases, kept, keptPhases []string
	covered := map[string]bool{}
	for _, e := range r.Summary.Excluded {
		covered[e.Phase] = true
		line := excludedLine(e)
		if e.Lost {
			lost = append(lost, line)
			lostPhases = append(lostPhases, e.Phase)
		} else {
			kept = append(kept, line)
			keptPhases = append(keptPhases, e.Phase)
		}
	}
	for _, p := range r.Phases {
		if !p.IsDisturbed() || covered[p.Name] || len(p.Figures) == 0 && p.Name != result.PhaseCommand {
			continue
		}
		line := fmt.Sprintf("%s: %s", p.Name, p.Judgement.Reason)
		if secondaryPhase(p.Name) {
			kept = append(kept, line+"; its figures are not figures (no headline takes them)")
			keptPhases = append(keptPhases, p.Name)
			continue
		}
		lost = append(lost, line)
		lostPhases = append(lostPhases, p.Name)
	}
	var out []finding.Finding
	if len(lost) > 0 {
		out = append(out, finding.Finding{
			ID: "disturbed_figures", Severity: finding.Invalidates,
			Title:    "Figures measured while other tasks took the CPU are not figures",
			Evidence: capEvidence(dedupe(lost), 8), Phases: dedupe(lostPhases),
			Advice: fmt.Sprintf("Other tasks took more than %.0f%% of the CPU time (or the benchmark's own usage shows it did not get its CPUs): "+
				"these figures are kept in the result but left out of the headline. Stop other work (`boardbench monitor` shows what is busy) and measure again.", result.ForeignCPUMaxPct),
		})
	}
	if len(kept) > 0 {
		out = append(out, finding.Finding{
			ID: "disturbed_runs", Severity: finding.Warning,
			Title:    "Disturbed runs left out of the headline",
			Evidence: capEvidence(dedupe(kept), 8), Phases: dedupe(keptPhases),
			Advice: "The headline stands on the runs that were not disturbed; stop other work and repeat to have every run count.",
		})
	}
	return out
}

// excludedLine words one excluded figure for evidence.
func excludedLine(e result.ExcludedFigure) string {
	what := e.Figure
	if e.Run > 0 {
		what += fmt.Sprintf(" run %d", e.Run)
	}
	if e.CPU != nil {
		what += fmt.Sprintf(" on cpu%d", *e.CPU)
	}
	s := fmt.Sprintf("%s (%s): read %s, %s", what, e.Phase, trimFloat(e.Measured), e.Reason)
	if !e.Lost {
		s += "; left out, the headline stands on the other runs"
	}
	return s
}

func trimFloat(v float64) string {
	if v == float64(int64(v)) {
		return fmt.Sprintf("%d", int64(v))
	}
	return fmt.Sprintf("%.1f", v)
}
