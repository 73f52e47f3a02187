package memmeasure

import (
	"context"
	"fmt"

	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/note"
	"boardbench/internal/result"
	"boardbench/internal/session"
)

// Figures are what the steps of `boardbench mem` measured, filled as they
// run: a result per CPU, the bandwidth of all CPUs at once, and notes on
// the whole measurement.
type Figures struct {
	Results []result.MemFigures
	// Total is nil when fewer than two CPUs can be used.
	Total *result.MemAllCoresFigures
	Notes note.List
}

// CommandSteps is the plan of `boardbench mem`: bandwidth and latency on
// each of cpus (explicit, or one per core type when nil), one at a time,
// then the bandwidth of all usable CPUs at once (when there are two or
// more). Each step records its figures in its phase and in out.
func CommandSteps(h *host.Host, info *inventory.Info, explicit, usable []int, plan Plan, out *Figures) []session.Step {
	cpus := explicit
	if cpus == nil {
		cpus = CPUs(info.CPU, usable)
		if len(info.CPU.Clusters) == 0 {
			out.Notes.Add("core types", "no cluster information: measured the first usable CPU only")
		}
	}
	var steps []session.Step
	var largestLLC int64
	for _, c := range cpus {
		core := CoreOf(info.CPU, c)
		title := fmt.Sprintf("Memory bandwidth and latency on cpu%d", c)
		if core != "" {
			title += " (" + core + ")"
		}
		steps = append(steps, session.Step{Name: result.PhaseMemory, Title: title, CPUs: []int{c}, Kind: "memory",
			Run: func(ctx context.Context, p *result.Phase) error {
				fig, err := Measure(ctx, h, c, core, plan)
				largestLLC = max(largestLLC, fig.LargestCacheBytes())
				if ctx.Err() == nil {
					out.Results = append(out.Results, fig)
				}
				if ferr := p.SetFigures(fig); ferr != nil {
					return ferr
				}
				return err
			}})
	}
	if len(usable) >= 2 {
		steps = append(steps, session.Step{Name: result.PhaseMemoryAllCores, Title: "Memory bandwidth of all CPUs at once", CPUs: usable, Kind: "memory",
			Run: func(ctx context.Context, p *result.Phase) error {
				fig, err := MeasureAll(ctx, usable, largestLLC, plan)
				if ctx.Err() == nil {
					out.Total = &fig
				}
				if ferr := p.SetFigures(fig); ferr != nil {
					return ferr
				}
				return err
			}})
	} else {
		out.Notes.Add("all-CPU bandwidth", "only one usable CPU")
	}
	return steps
}

// MemClocks returns the memory controller's clock during each of
// out.Results (same order; nil where none was sampled) and during
// out.Total, from the samples of r's memory phases: a result is matched
// to the memory phase on its CPU.
func MemClocks(r *result.Result, out *Figures) ([]*result.MemClock, *result.MemClock) {
	dev := r.Monitor.MemClock
	byCPU := map[int]*result.MemClock{}
	var total *result.MemClock
	for _, p := range r.Phases {
		switch {
		case p.Name == result.PhaseMemory && len(p.CPUs) == 1:
			byCPU[p.CPUs[0]] = result.MemClockOf(dev, p.Samples)
		case p.Name == result.PhaseMemoryAllCores:
			total = result.MemClockOf(dev, p.Samples)
		}
	}
	mc := make([]*result.MemClock, len(out.Results))
	for i, f := range out.Results {
		mc[i] = byCPU[f.CPU]
	}
	if out.Total == nil {
		total = nil
	}
	return mc, total
}
