package hpl

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"testing"

	"boardbench/internal/testutil/need"
)

// TestRunReal runs Debian's hpcc (or an xhpl on PATH) on this machine with
// a small problem: the input file is accepted, the output parsed, the
// residual check passed and the working directory removed.
func TestRunReal(t *testing.T) {
	if testing.Short() {
		t.Skip("runs HPL (about a minute with hpcc)")
	}
	tool, err := Find(exec.LookPath)
	if err != nil {
		need.Missing(t, "%v", err)
	}
	procs := 1
	if tool.MPIRun != "" && runtime.NumCPU() > 1 {
		procs = 2
	}
	p, q := Grid(procs)
	tmp := t.TempDir()
	m, err := Run(context.Background(), tool, Options{Params: Params{N: 512, NB: 64, P: p, Q: q}, Root: os.Geteuid() == 0, TempDir: tmp})
	if err != nil {
		t.Fatalf("%v\nargv %v\nstderr:\n%s\noutput:\n%s", err, m.Argv, m.Stderr, m.Output)
	}
	f := m.Parsed.Figures()
	if len(f.Runs) != 1 || f.Runs[0].N != 512 || f.Runs[0].NB != 64 || f.Runs[0].P != int64(p) || f.Runs[0].Q != int64(q) {
		t.Errorf("runs = %+v", f.Runs)
	}
	if f.Gflops == nil || *f.Gflops <= 0 || f.ResidualFailed || f.Runs[0].Check != "PASSED" {
		t.Errorf("figures = %+v", f)
	}
	if tool.Name == "hpcc" && m.Parsed.HPCCVersion == "" {
		t.Errorf("no hpcc version in\n%s", m.Output)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("working directory left behind: %v", left)
	}
}
