package result

import (
	"fmt"
	"math"
)

// ForeignCPUMaxPct is the share of all CPUs' time that tasks outside the
// benchmark's own processes may use, as the mean over a phase, before a
// figure measured in that phase is not a figure: it is kept in the result,
// marked (Phase.Judgement.Disturbed, Summary.Excluded) and left out of the
// headline.
//
// Evidence (docs/verdicts.md): in the 238 logs of the bash tool sbc-bench
// in ../shared/data/sbc-bench-logs, the 236 single-threaded phases
// (tinymembench, ramlat, openssl, 7-Zip single core) of the logs that tool
// judged free of background activity show a mean CPU usage above one busy
// CPU of at most 2.8 % of all CPUs' time (99th percentile about 1 %); the
// flagged logs reach 3–3.5 %, then 11.8, 30 and 65 %
// (sbcimport.TestThresholdsLieAboveCleanLogs keeps this evidence). 5 % lies above every clean phase with room for the
// logs' whole-percent rounding, and a figure taken while 5 % of the CPU
// time went elsewhere is off by at most about what consecutive runs of a
// quiet machine differ by (check.MaxRunSpreadPct, 5 %).
const ForeignCPUMaxPct = 5.0

// MultiThreadMinUsageAloneShare is the share of threads × 100 % below
// which a multi-threaded 7-Zip run is disturbed on its own evidence, even
// when it is the only run of its phase or every run is alike. Evidence: the
// 683 multi-threaded runs of the same logs report at least 60.7 % (a
// three-thread board, in all its runs), 70 % on big.LITTLE boards such as
// the Odroid XU4 and 71 % with 256 threads; those of the logs judged clean
// at least 81.6 %.
const MultiThreadMinUsageAloneShare = 0.60

// Judgement is how the check rules judged one phase's evidence (set by
// check.Judge; nil for a phase never judged, e.g. of an older result).
type Judgement struct {
	// ForeignCPUPct is the mean share of all CPUs' time that tasks outside
	// the benchmark's own processes used during the phase (steal time
	// excluded; for I/O phases interrupt time too); nil when the monitor
	// could not tell (no CPU time split, or a window too short).
	ForeignCPUPct *float64 `json:"foreign_cpu_pct"`
	// OwnCPUPct is the mean share of all CPUs' time the benchmark's own
	// processes used; nil when the monitor did not know them.
	OwnCPUPct *float64 `json:"own_cpu_pct"`
	// Disturbed is true when the phase's figures are not figures: other
	// work took more than ForeignCPUMaxPct of the CPU time (or the
	// benchmark's own usage shows it did not get its CPUs). Its figures
	// stay in the phase and are left out of every headline.
	Disturbed bool `json:"disturbed"`
	// Reason says why the phase is disturbed, or notes foreign activity
	// below the threshold ("" when there is nothing to say).
	Reason string `json:"reason,omitempty"`
}

// IsDisturbed reports whether the phase was judged disturbed: its figures
// are kept but are not figures.
func (p Phase) IsDisturbed() bool { return p.Judgement != nil && p.Judgement.Disturbed }

// ExcludedFigure is a figure measured under disturbance: kept in the
// result, left out of its headline.
type ExcludedFigure struct {
	// Figure is the headline it was left out of, by its summary name
	// ("sevenzip_multi_mips", "aes256_16k", "sweep").
	Figure string `json:"figure"`
	// Phase names the phase it was measured in.
	Phase string `json:"phase"`
	// CPU is the CPU of a per-CPU figure (nil otherwise); Run the run's
	// number in its phase, from 1 (0 for a phase's single figure; for a
	// sweep step, its pass number at that clock).
	CPU *int `json:"cpu,omitempty"`
	Run int  `json:"run,omitempty"`
	// Measured is what it read.
	Measured float64 `json:"measured"`
	// Reason says why it is not a figure.
	Reason string `json:"reason"`
	// Lost is true when no valid figure took its place: its headline (or
	// that CPU's value of it) is gone. A result that lost a headline
	// figure is not valid.
	Lost bool `json:"lost"`
}

// HeadlineNote says why a headline figure is null although it was
// measured.
type HeadlineNote struct {
	Figure string `json:"figure"`
	Reason string `json:"reason"`
}

// LostFigures returns the excluded figures that took a headline figure
// with them.
func (s Summary) LostFigures() []ExcludedFigure {
	var out []ExcludedFigure
	for _, e := range s.Excluded {
		if e.Lost {
			out = append(out, e)
		}
	}
	return out
}

// phaseReason is the reason a disturbed phase's figures are excluded.
func phaseReason(p Phase) string {
	if p.Judgement != nil && p.Judgement.Reason != "" {
		return p.Judgement.Reason
	}
	return "measured while other tasks used the CPUs"
}

// ForeignReason is the reason recorded for a phase during which tasks
// outside the benchmark used pct of all CPUs' time, above ForeignCPUMaxPct.
func ForeignReason(pct float64) string {
	return fmt.Sprintf("other tasks used %.1f%% of the CPU time (more than %.0f%%)", math.Round(pct*10)/10, ForeignCPUMaxPct)
}

// Round1 rounds v to one decimal, the precision of judgement shares.
func Round1(v float64) float64 { return math.Round(v*10) / 10 }

// NotValid reports whether r is a complete measurement whose verdict is
// "not valid": the figures were kept but must not be compared. A
// measuring command exits with its own status then (docs/verdicts.md).
func (r *Result) NotValid() bool {
	return r.Status == StatusComplete && !r.Summary.Valid
}
