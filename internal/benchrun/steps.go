package benchrun

import (
	"context"
	"errors"
	"fmt"
	"time"

	"boardbench/internal/inventory/cpu"
	"boardbench/internal/memmeasure"
	"boardbench/internal/result"
	"boardbench/internal/session"
)

// steps returns the phases of the run in order: clock, memory and openssl
// per core type, 7-Zip single-threaded per core type, 7-Zip multi-threaded,
// clock after load; with --extensive then openssl's AEAD ciphers and
// cryptsetup's aes-xts per core type, 7-Zip per cluster, openssl on all
// cores and the sustained load.
func (r *runner) steps() []session.Step {
	var out []session.Step
	out = append(out, r.clockStep(result.PhaseClock, "Clock of one CPU per cluster", r.opt.OPPs))
	for _, t := range r.targets {
		out = append(out, r.memoryStep(t))
	}
	for _, t := range r.targets {
		st := session.Step{Name: result.PhaseOpenSSL, Title: "openssl speed AES-CBC on one CPU of " + t.Label()}
		if r.tools.OpenSSL == nil {
			st.Skip = missingReason("openssl", r.tools.OpenSSLMissing)
		} else {
			st = r.opensslStep(t)
		}
		out = append(out, st)
	}
	for _, t := range r.targets {
		st := session.Step{Name: result.PhaseSevenZipSingle, Title: "7-Zip single-threaded on one CPU of " + t.Label()}
		if r.tools.SevenZip == nil {
			st.Skip = missingReason("7-Zip", r.tools.SevenZipMissing)
		} else {
			st = r.sevenZipSingleStep(t)
		}
		out = append(out, st)
	}
	multiTitle := fmt.Sprintf("7-Zip multi-threaded on all CPUs (cpu%s), %d consecutive runs", cpu.FormatCPUList(r.usable), r.plan.SevenZipMultiRuns)
	if r.plan.SevenZipMultiRuns == 1 {
		multiTitle = fmt.Sprintf("7-Zip multi-threaded on all CPUs (cpu%s), one run", cpu.FormatCPUList(r.usable))
	}
	if r.tools.SevenZip == nil {
		out = append(out, session.Step{Name: result.PhaseSevenZipMulti, Title: multiTitle, Skip: missingReason("7-Zip", r.tools.SevenZipMissing)})
	} else {
		out = append(out, r.sevenZipMultiStep(result.PhaseSevenZipMulti, multiTitle, r.usable, commonCore(r.targets, r.usable),
			r.plan.SevenZipMultiRuns, 0, r.est.SevenZipMulti*timeMul(r.plan.SevenZipMultiRuns)))
	}
	out = append(out, r.clockStep(result.PhaseClockAfterLoad, "Clock of one CPU per cluster right after the heaviest load", false))
	if r.opt.Extensive {
		out = append(out, r.extensiveSteps()...)
	}
	out = append(out, r.workloadSteps()...)
	return out
}

// extensiveSteps are the phases of --extensive.
func (r *runner) extensiveSteps() []session.Step {
	var out []session.Step
	for _, t := range r.targets {
		st := session.Step{Name: result.PhaseOpenSSLEVP, Title: "openssl speed " + opensslEVPWhat + " on one CPU of " + t.Label()}
		if r.tools.OpenSSL == nil {
			st.Skip = missingReason("openssl", r.tools.OpenSSLMissing)
		} else {
			st = r.opensslEVPStep(t)
		}
		out = append(out, st)
	}
	for _, t := range r.targets {
		out = append(out, r.cryptsetupStep(t))
	}
	clusters := r.info.CPU.Clusters
	for i, cl := range clusters {
		cpus := intersect(cl.CPUs, r.usable)
		title := fmt.Sprintf("7-Zip multi-threaded on cluster %d (cpu%s, %s)", i, cpu.FormatCPUList(cl.CPUs), orUnknown(cl.Core))
		st := session.Step{Name: result.PhaseSevenZipCluster, Title: title, CPUs: cpus}
		switch {
		case r.tools.SevenZip == nil:
			st.Skip = missingReason("7-Zip", r.tools.SevenZipMissing)
		case len(clusters) < 2:
			st.Skip = "one cluster only: the same as the multi-threaded phase"
		case len(cpus) == 0:
			st.Skip = "no CPU of this cluster is usable"
		default:
			st = r.sevenZipMultiStep(result.PhaseSevenZipCluster, title, cpus, cl.Core, 1, 0, r.est.SevenZipMulti)
		}
		out = append(out, st)
	}
	if r.tools.OpenSSL == nil {
		out = append(out, session.Step{Name: result.PhaseOpenSSLAllCores, Title: "openssl speed AES-256-CBC on all CPUs at once", Skip: missingReason("openssl", r.tools.OpenSSLMissing)})
	} else {
		out = append(out, r.opensslAllCoresStep())
	}
	title := fmt.Sprintf("Sustained load: 7-Zip multi-threaded on all CPUs for %s", r.plan.Sustained.Round(time.Second))
	if r.tools.SevenZip == nil {
		out = append(out, session.Step{Name: result.PhaseSustained, Title: title, Skip: missingReason("7-Zip", r.tools.SevenZipMissing)})
	} else {
		st := r.sevenZipMultiStep(result.PhaseSustained, title, r.usable, commonCore(r.targets, r.usable), 0, r.plan.Sustained, r.plan.Sustained+r.est.SevenZipMulti/2)
		st.Kind = "" // its length is set by time, not by the machine's speed
		out = append(out, st)
	}
	return out
}

// memoryStep measures memory from one CPU of t.
func (r *runner) memoryStep(t Target) session.Step {
	return session.Step{Name: result.PhaseMemory, Title: "Memory bandwidth and latency on one CPU of " + t.Label(), Kind: "memory",
		Estimate: r.est.Memory,
		Run: func(ctx context.Context, p *result.Phase) error {
			for {
				cpu, ok := r.pick(t)
				if !ok {
					return fmt.Errorf("no CPU of %s could be pinned", t.Label())
				}
				p.CPUs = []int{cpu}
				p.Title = fmt.Sprintf("Memory bandwidth and latency on cpu%d (%s)", cpu, orUnknown(t.Core))
				fig, err := r.cfg.Memory(ctx, r.h, cpu, t.Core, r.plan.Memory)
				var pe *memmeasure.PinError
				if errors.As(err, &pe) {
					r.pinFailure(cpu, pe.Err)
					continue
				}
				if fig.Latency == nil {
					fig.Latency = []result.LatencyRow{}
				}
				if fig.CacheLevels == nil {
					fig.CacheLevels = []result.CacheLevel{}
				}
				if ferr := p.SetFigures(fig); ferr != nil {
					return ferr
				}
				return err
			}
		}}
}

// missingReason is the reason of a phase skipped for a missing tool.
func missingReason(name string, m *ToolMissing) string {
	if m == nil {
		return name + " not installed"
	}
	return name + " " + m.Reason + "; " + m.Hint
}
