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
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/result"
	"boardbench/internal/session"
)

// Workload names of `run --workloads` (this file: hpl and ssh).
const (
	WorkloadHPL = "hpl"
	WorkloadSSH = "ssh"
)

// KnownWorkloads are the names --workloads accepts.
var KnownWorkloads = []string{WorkloadHPL, WorkloadSSH}

// extensiveWorkloads are the cheap workloads --extensive adds.
var extensiveWorkloads = []string{WorkloadSSH}

// ParseWorkloads splits a comma list of workload names, refusing an unknown
// one; the empty list is none.
func ParseWorkloads(list string) ([]string, error) {
	var out []string
	for _, name := range strings.Split(list, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		if !slices.Contains(KnownWorkloads, name) {
			return nil, fmt.Errorf("unknown workload %q (known: %s)", name, strings.Join(KnownWorkloads, ", "))
		}
		if !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out, nil
}

// workloads returns the workloads of the run: --workloads, and the cheap
// ones with --extensive, in KnownWorkloads' order.
func workloads(opt Options) []string {
	var out []string
	for _, name := range KnownWorkloads {
		if slices.Contains(opt.Workloads, name) || opt.Extensive && slices.Contains(extensiveWorkloads, name) {
			out = append(out, name)
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

// findWorkloadTools looks for the programs of the chosen workloads and
// records them (or why they are missing) in the result's tools.
func (r *runner) findWorkloadTools(ctx context.Context) {
	wl := workloads(r.opt)
	r.wl.hplTool = -1
	live := r.h.Live()
	if slices.Contains(wl, WorkloadHPL) {
		switch t, err := hpl.Find(exec.LookPath); {
		case !live:
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
	if slices.Contains(wl, WorkloadSSH) {
		t, err := sshcipher.FindTools()
		switch {
		case !live:
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
}

// workloadSteps are the phases of the chosen workloads.
func (r *runner) workloadSteps() []session.Step {
	var out []session.Step
	for _, name := range workloads(r.opt) {
		switch name {
		case WorkloadHPL:
			out = append(out, r.hplStep())
		case WorkloadSSH:
			out = append(out, r.sshStep())
		}
	}
	return out
}

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
