package benchrun

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/note"
	"boardbench/internal/result"
	"boardbench/internal/session"
	"boardbench/internal/tools"
)

// Workload names of `run --workloads LIST`.
const (
	WorkloadZstd   = "zstd"
	WorkloadArmcap = "armcap"
	WorkloadLlama  = "llama"
)

// workloadDef is one opt-in workload of run: its phases come after the
// standard (and --extensive) phases, in the order of workloadDefs.
type workloadDef struct {
	name string
	// cheap workloads are added by --extensive.
	cheap bool
	// steps returns the workload's phases.
	steps func(r *runner) []session.Step
}

// workloadDefs are the known workloads in the order they run.
func workloadDefs() []workloadDef {
	return []workloadDef{
		{name: WorkloadZstd, cheap: true, steps: (*runner).zstdSteps},
		{name: WorkloadArmcap, cheap: true, steps: (*runner).armcapSteps},
		{name: WorkloadLlama, steps: (*runner).llamaSteps},
	}
}

// WorkloadNames returns the names --workloads accepts, in the order the
// workloads run.
func WorkloadNames() []string {
	var out []string
	for _, d := range workloadDefs() {
		out = append(out, d.name)
	}
	return out
}

// ParseWorkloads reads a --workloads list: names separated by commas
// (spaces around them ignored, repeats allowed). It returns the names in
// the order they run; an unknown name is an error naming the known ones.
func ParseWorkloads(list string) ([]string, error) {
	want := map[string]bool{}
	for _, f := range strings.Split(list, ",") {
		name := strings.ToLower(strings.TrimSpace(f))
		if name == "" {
			continue
		}
		if !slices.Contains(WorkloadNames(), name) {
			return nil, fmt.Errorf("unknown workload %q (known: %s)", name, strings.Join(WorkloadNames(), ", "))
		}
		want[name] = true
	}
	var out []string
	for _, n := range WorkloadNames() {
		if want[n] {
			out = append(out, n)
		}
	}
	return out, nil
}

// workloadList is the workloads of the run: those asked for, and with
// --extensive the cheap ones, in the order they run.
func (o Options) workloadList() []string {
	var out []string
	for _, d := range workloadDefs() {
		if slices.Contains(o.Workloads, d.name) || (o.Extensive && d.cheap) {
			out = append(out, d.name)
		}
	}
	return out
}

// CheckWorkloads checks the workload options before anything is measured:
// llama needs a model file (--model), and --model is for llama only.
func CheckWorkloads(o Options) error {
	llama := slices.Contains(o.Workloads, WorkloadLlama)
	switch {
	case llama && o.Model == "":
		return fmt.Errorf("--workloads llama needs --model FILE (a GGUF model file; boardbench never downloads one)")
	case !llama && o.Model != "":
		return fmt.Errorf("--model is for --workloads llama")
	}
	return nil
}

// FindWorkloadTool finds the program of a workload on PATH; a workload
// that uses a tool of the standard run (armcap: openssl) has none of its
// own (nil, nil). Workload programs are never installed.
func FindWorkloadTool(ctx context.Context, h *host.Host, workload string) (*tools.Tool, *ToolMissing) {
	switch workload {
	case WorkloadZstd:
		t, notes := tools.FindZstd(ctx, h)
		if t == nil {
			return nil, &ToolMissing{Reason: notesReason(notes), Hint: "install zstd from your distribution's packages (Debian: apt install zstd)"}
		}
		return t, nil
	case WorkloadLlama:
		t, notes := tools.FindLlamaBench(ctx, h)
		if t == nil {
			return nil, &ToolMissing{Reason: notesReason(notes), Hint: "build llama.cpp (its llama-bench program) and put llama-bench on PATH"}
		}
		return t, nil
	}
	return nil, nil
}

// notesReason is the reason of a missing tool from its lookup notes.
func notesReason(notes note.List) string {
	for _, n := range notes {
		if n.Reason == note.NotInstalled {
			return "not installed"
		}
		return "not usable: " + n.Reason
	}
	return "not installed"
}

// findWorkloadTools looks for the programs of the run's workloads and
// records them (or why they are missing) in the result's tools. A missing
// workload program skips its phase with the reason; it is no finding (the
// workloads are an extra).
func (r *runner) findWorkloadTools(ctx context.Context) {
	find := r.cfg.FindWorkloadTool
	if find == nil {
		find = FindWorkloadTool
	}
	r.wlTools = map[string]*tools.Tool{}
	r.wlMissing = map[string]*ToolMissing{}
	for _, name := range r.opt.workloadList() {
		t, missing := find(ctx, r.h, name)
		switch {
		case t != nil:
			r.wlTools[name] = t
			r.res.Tools = append(r.res.Tools, result.ToolVersion{Name: t.Name, Path: t.Path, Version: t.Version, VersionLine: t.VersionLine})
		case missing != nil:
			r.wlMissing[name] = missing
			r.res.Tools = append(r.res.Tools, result.ToolVersion{Name: workloadProgram(name), Note: missing.Reason + "; " + missing.Hint})
		}
	}
}

// workloadProgram names a workload's program in messages.
func workloadProgram(workload string) string {
	switch workload {
	case WorkloadLlama:
		return "llama-bench"
	}
	return workload
}

// workloadSteps are the phases of the run's workloads.
func (r *runner) workloadSteps() []session.Step {
	var out []session.Step
	list := r.opt.workloadList()
	for _, d := range workloadDefs() {
		if slices.Contains(list, d.name) {
			out = append(out, d.steps(r)...)
		}
	}
	return out
}
