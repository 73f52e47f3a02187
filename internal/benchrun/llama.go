package benchrun

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"boardbench/internal/benchtool/llamabench"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/result"
	"boardbench/internal/session"
)

// llamaOptions are llama-bench's options for the run: the published shape
// (-p 512 -n 128, five repetitions), in quick mode -p 64 -n 16 once.
func (r *runner) llamaOptions(cpus []int) llamabench.Options {
	o := llamabench.Options{Model: r.opt.Model, Threads: len(cpus), CPUs: cpus}
	if r.plan.Quick {
		o.Prompt, o.Gen, o.Repetitions = 64, 16, 1
	}
	return o
}

// llamaSteps is the llama workload's phase: llama-bench on the user's
// model with one thread per usable CPU, bound to them.
func (r *runner) llamaSteps() []session.Step {
	title := fmt.Sprintf("llama-bench on %s, all CPUs (cpu%s)", filepath.Base(r.opt.Model), cpu.FormatCPUList(r.usable))
	st := session.Step{Name: result.PhaseLlama, Title: title, CPUs: r.usable}
	tool := r.wlTools[WorkloadLlama]
	if tool == nil {
		st.Skip = missingReason("llama-bench", r.wlMissing[WorkloadLlama])
		return []session.Step{st}
	}
	// Minutes on a small board with a 1-3 GB model; only the ETA uses it.
	st.Estimate = 3 * time.Minute
	if r.plan.Quick {
		st.Estimate = 30 * time.Second
	}
	st.Run = func(ctx context.Context, p *result.Phase) error {
		cpus := r.pinnable()
		if len(cpus) == 0 {
			return errors.New("no CPU could be pinned")
		}
		p.CPUs = cpus
		opts := r.llamaOptions(cpus)
		p.Title = fmt.Sprintf("llama-bench on %s, %d threads on cpu%s", filepath.Base(r.opt.Model), len(cpus), cpu.FormatCPUList(cpus))
		m, err := llamabench.Run(ctx, r.cfg.Exec, *tool, opts)
		figs := result.LlamaFigures{CPUs: cpus, Model: filepath.Base(r.opt.Model), Tests: []result.LlamaTest{}}
		if m != nil {
			var raw strings.Builder
			appendRaw(&raw, m.Tool, m.Args, m.RawOutput, m.RawStderr)
			p.RawOutput = raw.String()
			fillLlama(&figs, m.Result)
			r.recordLlamaVersion(figs.Version)
		}
		if err != nil {
			figs.Error = err.Error()
		}
		if ferr := p.SetFigures(figs); ferr != nil {
			return ferr
		}
		return err
	}
	return []session.Step{st}
}

// fillLlama copies what llama-bench printed into the figures.
func fillLlama(f *result.LlamaFigures, res *llamabench.Result) {
	if res == nil {
		return
	}
	f.Version, f.ModelType, f.ModelBytes, f.ModelParams = res.Version(), res.ModelType, res.ModelBytes, res.ModelParams
	f.Backends, f.Threads = res.Backends, res.Threads
	for _, t := range res.Tests {
		f.Tests = append(f.Tests, result.LlamaTest{Name: t.Name, NPrompt: t.NPrompt, NGen: t.NGen, NDepth: t.NDepth, TokensS: t.TokensS, StddevTS: t.StddevTS})
	}
	if t := res.First("pp"); t != nil {
		v := t.TokensS
		f.PPTokensS = &v
	}
	if t := res.First("tg"); t != nil {
		v := t.TokensS
		f.TGTokensS = &v
	}
}

// recordLlamaVersion puts llama.cpp's build, which only llama-bench's
// output names, in the result's tools entry.
func (r *runner) recordLlamaVersion(v string) {
	if v == "" {
		return
	}
	for i := range r.res.Tools {
		if t := &r.res.Tools[i]; t.Name == "llama-bench" && t.Version == "" {
			t.Version, t.VersionLine = v, "llama-bench JSON output: "+v
		}
	}
}
