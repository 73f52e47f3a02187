package check

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"boardbench/internal/finding"
	"boardbench/internal/result"
)

// Finding ids `boardbench run` adds of its own: what its preparation saw
// (internal/benchrun) and the sustained phase's drift.
const (
	IDPinningFailed      = "pinning_failed"
	IDCPUsOfflineAtStart = "cpus_offline_at_start"
	IDNotTuned           = "not_tuned"
	IDOPPWalkSkipped     = "opp_walk_skipped"
	IDSustainedDrift     = "sustained_drift"
)

// PinningFailed is the finding of a CPU that could not be pinned
// (offline, or reserved by the hypervisor or a cpuset); the run adds the
// next CPUs to its evidence (PinningEvidence).
func PinningFailed(cpu int, err error) finding.Finding {
	return finding.Finding{
		ID: IDPinningFailed, Severity: finding.Warning,
		Title:    "Some CPUs could not be used (offline, or reserved by the hypervisor or a cpuset)",
		Evidence: []string{PinningEvidence(cpu, err)},
		Advice:   "Benchmarks ran on the other CPUs of the same core type; check /sys/devices/system/cpu/online and the process's CPU affinity.",
	}
}

// PinningEvidence is the evidence line of one CPU that could not be
// pinned.
func PinningEvidence(cpu int, err error) string {
	return fmt.Sprintf("cpu%d: %v", cpu, err)
}

// CPUsOfflineAtStart is the finding of CPUs (named "cpuN") that were
// offline when the run started.
func CPUsOfflineAtStart(off []string) finding.Finding {
	return finding.Finding{
		ID: IDCPUsOfflineAtStart, Severity: finding.Warning,
		Title:    "Some CPUs were offline when the run started",
		Evidence: []string{strings.Join(off, ", ") + " offline; multi-threaded figures use the online CPUs only"},
		Advice:   "Bring all cores online (echo 1 > /sys/devices/system/cpu/cpuN/online) before comparing multi-threaded figures.",
	}
}

// NotTuned is the finding of a run that tuned nothing because it did not
// run as root; governors describes the governors during the run.
func NotTuned(governors string) finding.Finding {
	return finding.Finding{ID: IDNotTuned, Severity: finding.Info,
		Title:    "Nothing was tuned: not running as root",
		Evidence: []string{"governors during the run: " + governors},
		Advice:   "Run as root (sudo) to let boardbench switch governors to performance for the run; they are restored afterwards."}
}

// OPPWalkSkipped is the finding of an OPP walk (--opps) that could not be
// made, and why.
func OPPWalkSkipped(why string) finding.Finding {
	return finding.Finding{ID: IDOPPWalkSkipped, Severity: finding.Info,
		Title: "The OPP walk (--opps) was skipped", Evidence: []string{why},
		Advice: "Run as root on a machine whose cpufreq driver lists its clocks (scaling_available_frequencies)."}
}

// MaxSustainedDropPct is the drop of the 7-Zip score over the sustained
// phase beyond which the finding sustained_drift is raised.
const MaxSustainedDropPct = 5.0

// SustainedDrift reports a 7-Zip score that fell by more than
// MaxSustainedDropPct from the first to the last run of the sustained
// phase: the board cannot hold its performance (throttling).
func SustainedDrift(phases []result.Phase) []finding.Finding {
	for _, p := range phases {
		if p.Name != result.PhaseSustained || len(p.Figures) == 0 {
			continue
		}
		var f result.SevenZipFigures
		if json.Unmarshal(p.Figures, &f) != nil || f.DriftPct == nil || *f.DriftPct > -MaxSustainedDropPct {
			continue
		}
		var runs []string
		for _, r := range f.Runs {
			if r.TotMIPS != nil {
				runs = append(runs, strconv.FormatFloat(*r.TotMIPS, 'f', 0, 64))
			}
		}
		return []finding.Finding{{
			ID: IDSustainedDrift, Severity: finding.Warning,
			Title:    fmt.Sprintf("7-Zip score fell %.1f%% under sustained load", -*f.DriftPct),
			Evidence: []string{"sustained runs: " + strings.Join(runs, ", ") + " MIPS"},
			Phases:   []string{p.Name},
			Advice:   "The board cannot hold its performance under load: check the cooling and the clocks in the monitor lines; compare sustained figures with care.",
		}}
	}
	return nil
}
