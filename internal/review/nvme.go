package review

import (
	"fmt"

	"boardbench/internal/nvmepower"
)

// Limits of the NVMe APST rule.
const (
	// APSTSlowExitUs is the exit latency from which a power state APST may
	// enter costs latency: a 4 KiB read from flash takes about 100 µs, so
	// a wake-up of 5 ms makes the first request after an idle pause fifty
	// times slower.
	APSTSlowExitUs = 5000
	// APSTLooseLimitUs is the APST limit from which, when the drive's
	// states cannot be read, the setting allows such states: drives'
	// deepest states commonly need 10 to 100 ms to enter and leave.
	APSTLooseLimitUs = 10000
)

// nvmeAPSTLatency flags NVMe drives whose APST may enter power states that
// take long to wake from: with the drive's table, the reachable states
// whose exit latency is APSTSlowExitUs or more; without it (not root, not
// the live machine), a limit of APSTLooseLimitUs or more, as information.
func nvmeAPSTLatency(e *Env) []Finding {
	var out []Finding
	for _, d := range e.storageInfo().Devices {
		if d.NVMePower != nil {
			out = append(out, apstFindings(d.Name, *d.NVMePower)...)
		}
	}
	return out
}

// apstFindings judges one drive's power management (name is its block
// device).
func apstFindings(name string, p nvmepower.Info) []Finding {
	if p.APSTEnabled != nil && !*p.APSTEnabled {
		return nil
	}
	var evidence []string
	if p.DefaultPSMaxLatencyUs != nil {
		evidence = append(evidence, ev(nvmepower.ModuleParam, fmt.Sprint(*p.DefaultPSMaxLatencyUs)))
	}
	tol := "/sys/class/nvme/" + p.Controller + "/power/pm_qos_latency_tolerance_us"
	if p.LatencyToleranceUs != nil {
		evidence = append(evidence, ev(tol, fmt.Sprint(*p.LatencyToleranceUs)))
	} else if p.ToleranceMode != "" {
		evidence = append(evidence, ev(tol, p.ToleranceMode))
	}
	const persist = "the kernel command line (nvme_core.default_ps_max_latency_us=N) or a udev rule writing power/pm_qos_latency_tolerance_us"
	const cost = "the drive idles at a higher power (typically tens to hundreds of mW more)"
	if len(p.States) > 0 {
		var slow []nvmepower.State
		keep := int64(0) // the largest limit that keeps the quick states
		for _, s := range p.Reachable() {
			if s.ExitLatencyUs >= APSTSlowExitUs {
				slow = append(slow, s)
			} else {
				keep = max(keep, s.TotalLatencyUs())
			}
		}
		if len(slow) == 0 {
			return nil
		}
		for _, s := range slow {
			evidence = append(evidence, fmt.Sprintf("%s PS%d: non-operational, %.4g W, entry %d µs, exit %d µs", p.Controller, s.ID, s.MaxPowerW, s.EntryLatencyUs, s.ExitLatencyUs))
		}
		deep := slow[len(slow)-1]
		return []Finding{warn(
			fmt.Sprintf("APST lets NVMe drive %s sleep in states that take up to %.1f ms to wake", name, float64(deep.ExitLatencyUs)/1000),
			fmt.Sprintf("lower the APST limit below the %d µs of PS%d's entry and exit so that only the quick states are used (nvme_core.default_ps_max_latency_us=%d; 0 turns APST off); "+
				"measure with boardbench storage before and after: the p99 latency of 4 KiB random reads shows the wake-ups", slow[0].TotalLatencyUs(), slow[0].ID, keep),
			persist, cost, evidence...)}
	}
	limit := p.LimitUs()
	if limit == nil || *limit < APSTLooseLimitUs {
		return nil
	}
	reason := p.Note
	if reason == "" {
		reason = "the drive's power states are unknown"
	}
	return []Finding{info(
		fmt.Sprintf("APST may let NVMe drive %s sleep in states that take up to %.0f ms to wake", name, float64(*limit)/1000),
		"run boardbench review as root on the board to read the drive's power states; if its deepest states wake slowly, lower nvme_core.default_ps_max_latency_us",
		persist, cost, append(evidence, reason)...)}
}
