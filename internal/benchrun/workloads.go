package benchrun

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"boardbench/internal/benchtool/hpl"
	"boardbench/internal/benchtool/sshcipher"
	"boardbench/internal/host"
	"boardbench/internal/inventory/cpu"
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
	WorkloadHPL    = "hpl"
	WorkloadSSH    = "ssh"
)

// workloadDef is one opt-in workload of run: its phases come after the
// standard (and --extensive) phases, in the order of workloadDefs.
type workloadDef struct {
	name string
	// cheap workloads are added by --extensive.
	cheap bool
	// find, when set, looks for the workload's own programs and records
	// them in the result's tools; without it FindWorkloadTool (or
	// Config.FindWorkloadTool) does.
	find func(r *runner, ctx context.Context)
	// steps returns the workload's phases.
	steps func(r *runner) []session.Step
}

// workloadDefs are the known workloads in the order they run.
func workloadDefs() []workloadDef {
	return []workloadDef{
		{name: WorkloadZstd, cheap: true, steps: (*runner).zstdSteps},
		{name: WorkloadArmcap, cheap: true, steps: (*runner).armcapSteps},
		{name: WorkloadLlama, steps: (*runner).llamaSteps},
		{name: WorkloadHPL, find: (*runner).findHPL, steps: (*runner).hplSteps},
		{name: WorkloadSSH, cheap: true, find: (*runner).findSSH, steps: (*runner).sshSteps},
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
	r.wl.hplTool = -1
	list := r.opt.workloadList()
	for _, d := range workloadDefs() {
		if !slices.Contains(list, d.name) {
			continue
		}
		name := d.name
		if d.find != nil {
			d.find(r, ctx)
			continue
		}
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

// workloadTools are the programs of the workloads, found in prepare; a
// "" reason means found.
type workloadTools struct {
	hpl          hpl.Tool
	hplMissing   string
	hplTool      int // index in the result's tools, -1 for none
	ssh          sshcipher.Tools
	sshMissing   string
	sshClient    string
	sshOffered   []string
	sshAvailable bool
}

// findHPL looks for hpcc or xhpl (and mpirun) and records it, or why it
// is missing, in the result's tools. A recorded root runs no workload.
func (r *runner) findHPL(_ context.Context) {
	switch t, err := hpl.Find(exec.LookPath); {
	case !r.h.Live():
		r.wl.hplMissing = "not the live system"
	case err != nil:
		r.wl.hplMissing = err.Error()
		r.res.Tools = append(r.res.Tools, result.ToolVersion{Name: "hpcc", Note: r.wl.hplMissing})
	default:
		r.wl.hpl = t
		r.wl.hplTool = len(r.res.Tools)
		note := "single process (no mpirun on PATH)"
		if t.MPIRun != "" {
			note = "started by " + t.MPIRun
		}
		r.res.Tools = append(r.res.Tools, result.ToolVersion{Name: t.Name, Path: t.Path, Note: note})
	}
}

// findSSH looks for ssh and sshd and the ciphers this ssh offers, and
// records them, or why they are missing, in the result's tools.
func (r *runner) findSSH(ctx context.Context) {
	t, err := sshcipher.FindTools()
	switch {
	case !r.h.Live():
		r.wl.sshMissing = "not the live system"
	case err != nil:
		r.wl.sshMissing = err.Error()
		r.res.Tools = append(r.res.Tools, result.ToolVersion{Name: "ssh", Note: r.wl.sshMissing})
	default:
		r.wl.ssh = t
		r.wl.sshClient = sshcipher.ClientVersion(ctx, t.SSH)
		r.wl.sshOffered, err = sshcipher.Offered(ctx, t.SSH)
		if err != nil {
			r.wl.sshMissing = err.Error()
		}
		r.res.Tools = append(r.res.Tools, result.ToolVersion{Name: "ssh", Path: t.SSH, Version: sshcipher.Version(r.wl.sshClient),
			VersionLine: r.wl.sshClient, Note: "server: " + t.SSHD + " (a throwaway instance on 127.0.0.1)"})
	}
}

// hplSteps is the hpl workload's phase.
func (r *runner) hplSteps() []session.Step { return []session.Step{r.hplStep()} }

// sshSteps is the ssh workload's phase.
func (r *runner) sshSteps() []session.Step { return []session.Step{r.sshStep()} }

// hplParams are the run's HPL parameters: N and NB from MemAvailable, one
// process per usable CPU where mpirun starts them.
func (r *runner) hplParams() (hpl.Params, *int64) {
	mem := r.info.Memory.AvailableBytes
	var avail int64
	if mem != nil {
		avail = *mem
	}
	n, nb := hpl.Size(avail, r.opt.Quick)
	procs := max(len(r.usable), 1)
	if r.wl.hpl.MPIRun == "" {
		procs = 1
	}
	p, q := hpl.Grid(procs)
	return hpl.Params{N: n, NB: nb, P: p, Q: q}, mem
}

// hplStep runs HPL on all usable CPUs.
func (r *runner) hplStep() session.Step {
	title := fmt.Sprintf("HPL (Linpack) on all CPUs (cpu%s)", cpu.FormatCPUList(r.usable))
	st := session.Step{Name: result.PhaseHPL, Title: title, CPUs: r.usable}
	if r.wl.hplMissing != "" {
		st.Skip = r.wl.hplMissing
		return st
	}
	prm, mem := r.hplParams()
	// About 2 Gflops, plus the half minute of hpcc's other tests: only
	// the progress display's first guess.
	st.Estimate = time.Duration(2.0/3*float64(prm.N)*float64(prm.N)*float64(prm.N)/2e9*float64(time.Second)) + 30*time.Second
	st.Run = func(ctx context.Context, p *result.Phase) error {
		t := r.wl.hpl
		p.Title = fmt.Sprintf("HPL (%s) N=%d NB=%d, %d×%d processes on cpu%s", t.Name, prm.N, prm.NB, prm.P, prm.Q, cpu.FormatCPUList(r.usable))
		r.prog.sub(fmt.Sprintf("%s N=%d NB=%d", t.Name, prm.N, prm.NB))
		m, err := hpl.Run(ctx, t, hpl.Options{Params: prm, Root: os.Geteuid() == 0, CPUs: r.usable})
		figs := result.HPLFigures{Runs: []result.HPLRun{}}
		if m != nil {
			figs = m.Parsed.Figures()
			var raw strings.Builder
			fmt.Fprintf(&raw, "$ cat %s\n%s\n", map[bool]string{true: "hpccinf.txt", false: "HPL.dat"}[t.Name == "hpcc"], m.Input)
			appendRaw(&raw, strings.Join(append(m.Env, m.Argv[0]), " "), m.Argv[1:], m.Output, m.Stderr)
			p.RawOutput = raw.String()
		}
		figs.Tool, figs.Path, figs.Launcher = t.Name, t.Path, t.MPIRun
		figs.Version = figs.HPLVersion
		if m != nil && m.Parsed.HPCCVersion != "" {
			figs.Version = m.Parsed.HPCCVersion
		}
		figs.Processes, figs.N, figs.NB, figs.P, figs.Q = prm.P*prm.Q, int64(prm.N), int64(prm.NB), int64(prm.P), int64(prm.Q)
		figs.MemAvailableBytes = mem
		if mem == nil {
			figs.Notes = append(figs.Notes, fmt.Sprintf("MemAvailable unknown: N is the smallest standard size, %d", prm.N))
		}
		if t.Name == "hpcc" {
			figs.BLAS = hpl.BLAS()
		}
		if figs.BLAS == "" {
			figs.Notes = append(figs.Notes, "BLAS library unknown (xhpl links its own; hpcc uses libblas.so.3)")
		}
		if r.wl.hplTool >= 0 {
			r.res.Tools[r.wl.hplTool].Version = figs.Version
		}
		if ferr := p.SetFigures(figs); ferr != nil {
			return ferr
		}
		return err
	}
	return st
}

// sshBytes is the data sent per cipher.
func (r *runner) sshBytes() int64 {
	if r.opt.Quick {
		return sshcipher.QuickBytes
	}
	return sshcipher.Bytes
}

// sshStep measures each cipher through a throwaway sshd.
func (r *runner) sshStep() session.Step {
	title := "ssh ciphers through a throwaway sshd on 127.0.0.1"
	st := session.Step{Name: result.PhaseSSHCiphers, Title: title, CPUs: r.usable}
	if r.wl.sshMissing != "" {
		st.Skip = r.wl.sshMissing
		return st
	}
	use, unsupported := sshcipher.Choose(sshcipher.Ciphers, r.wl.sshOffered)
	if len(use) == 0 {
		st.Skip = "this ssh offers none of " + strings.Join(sshcipher.Ciphers, ", ")
		return st
	}
	n := r.sshBytes()
	// About 100 MB/s per cipher: only the progress display's first guess.
	st.Estimate = time.Duration(len(use)) * (time.Duration(float64(n)/100e6*float64(time.Second)) + 2*time.Second)
	st.Run = func(ctx context.Context, p *result.Phase) error {
		figs := result.SSHFigures{Client: r.wl.sshClient, Version: sshcipher.Version(r.wl.sshClient), Server: r.wl.ssh.SSHD,
			Bytes: n, Ciphers: []result.SSHCipher{}, Unsupported: unsupported}
		srv, err := sshcipher.Start(ctx, r.wl.ssh)
		if err != nil {
			_ = p.SetFigures(figs)
			return fmt.Errorf("throwaway sshd: %w", err)
		}
		defer srv.Stop()
		if srv.NoPrivsepDir {
			figs.Notes = append(figs.Notes, "the system has no /run/sshd: sshd ran in a private mount namespace with its own empty /run")
		}
		var raw strings.Builder
		var failed []string
		for i, c := range use {
			r.prog.sub(fmt.Sprintf("%s (%d of %d)", c, i+1, len(use)))
			tr, err := srv.Measure(ctx, c, n)
			row := result.SSHCipher{Cipher: c}
			if v, ok := tr.MBs(); ok && err == nil {
				d := tr.Duration.Seconds()
				row.MBs, row.DurationS = &v, &d
			}
			if err != nil {
				row.Error = err.Error()
				failed = append(failed, c+": "+err.Error())
			}
			appendRaw(&raw, tr.Argv[0], tr.Argv[1:], "", tr.Stderr)
			figs.Ciphers = append(figs.Ciphers, row)
			if ctx.Err() != nil {
				break
			}
		}
		srv.Stop()
		if log := srv.Log(); log != "" {
			fmt.Fprintf(&raw, "\nsshd:\n%s", log)
		}
		p.RawOutput = raw.String()
		if err := p.SetFigures(figs); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		if len(failed) > 0 {
			return errors.New(strings.Join(failed, "; "))
		}
		return nil
	}
	return st
}
