package check

import (
	"fmt"
	"time"

	"boardbench/internal/finding"
	"boardbench/internal/idle"
)

// Finding ids of the idle gate, the wait for a quiet machine before a
// measuring command starts (internal/prepare.IdleGate, for every command
// that waits).
const (
	IDIdleGateSkipped = "idle_gate_skipped"
	IDNotQuiet        = "not_quiet"
	IDIdleUnknown     = "idle_unknown"
)

// IdleGateSkipped is the finding of an idle gate skipped by --force: the
// 1-minute load average at the start as evidence when it was readable
// (known), a warning when that load was not below idle.MaxLoad1.
func IdleGateSkipped(load1 float64, known bool) finding.Finding {
	f := finding.Finding{ID: IDIdleGateSkipped, Severity: finding.Info,
		Title:  "The idle check was skipped (--force)",
		Advice: "Run without --force so that boardbench waits for a quiet machine; background activity lowers every figure."}
	if known {
		f.Evidence = []string{fmt.Sprintf("1-minute load average %.2f at the start", load1)}
		if load1 >= idle.MaxLoad1 {
			f.Severity = finding.Warning
		}
	}
	return f
}

// NotQuiet is the finding of a machine still busy after waiting waited:
// why it is not quiet, then its busiest processes and kernel threads.
func NotQuiet(st idle.State, waited time.Duration) finding.Finding {
	ev := []string{st.Reason()}
	for _, p := range st.Top {
		kind := "process"
		if p.Kernel {
			kind = "kernel thread"
		}
		ev = append(ev, fmt.Sprintf("%s %s[%d]: %.1f%% CPU", kind, p.Name, p.PID, p.CPUPct))
	}
	return finding.Finding{ID: IDNotQuiet, Severity: finding.Warning,
		Title:    fmt.Sprintf("The machine was not quiet after waiting %.0f s", waited.Seconds()),
		Evidence: ev,
		Advice:   "Stop what keeps the machine busy (updates, indexers, desktop, containers) and run again; the figures may be low."}
}

// IdleUnknown is the finding of an idle gate that could not look at the
// machine (err says why).
func IdleUnknown(err error) finding.Finding {
	return finding.Finding{ID: IDIdleUnknown, Severity: finding.Info,
		Title: "Could not check that the machine is quiet", Evidence: []string{err.Error()},
		Advice: "Make sure nothing else runs during the measurement."}
}
