package hpl

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"boardbench/internal/proc"
	"boardbench/internal/regfile"
)

// Tool is the HPL program found on the machine.
type Tool struct {
	// Name is "xhpl" or "hpcc", Path the binary.
	Name, Path string
	// MPIRun is the mpirun that starts the processes; "" runs one process
	// directly.
	MPIRun string
}

// LookPath finds a program on PATH (exec.LookPath, or a fake in tests).
type LookPath func(name string) (string, error)

// ErrNotFound means neither xhpl nor hpcc is on PATH.
const ErrNotFound = constError("neither xhpl nor hpcc is on PATH (Debian: apt install hpcc; or build HPL and put xhpl on PATH)")

// Find finds xhpl (a build the user made, usually against an optimised
// BLAS: preferred) or else hpcc, and mpirun.
func Find(look LookPath) (Tool, error) {
	for _, name := range []string{"xhpl", "hpcc"} {
		if p, err := look(name); err == nil {
			t := Tool{Name: name, Path: p}
			if m, err := look("mpirun"); err == nil {
				t.MPIRun = m
			}
			return t, nil
		}
	}
	return Tool{}, ErrNotFound
}

// Options are how a run is made.
type Options struct {
	Params
	// Root says boardbench runs as root: Open MPI's mpirun then needs its
	// two OMPI_ALLOW_RUN_AS_ROOT variables.
	Root bool
	// TempDir is where the working directory is made; "" is os.TempDir.
	TempDir string
	// CPUs binds the processes to these CPUs; empty leaves them free.
	CPUs []int
}

// Measurement is one HPL run: how it was started, what it printed and the
// parsed output.
type Measurement struct {
	Argv []string
	Env  []string
	// Input is the input file written (hpccinf.txt or HPL.dat).
	Input string
	// Output is hpccoutf.txt for hpcc, standard output for xhpl; Stderr
	// the standard error (both bounded).
	Output, Stderr string
	Exit           proc.Exit
	Parsed         Output
}

// maxOutput bounds what is read of each output: hpccoutf.txt is about
// 20 KiB, xhpl's output a few KiB.
const maxOutput = 4 << 20

// Run runs t once with opt in a new temporary working directory, which it
// removes. The error is the process's failure or ErrNoResult; the
// Measurement holds whatever there was in every case.
func Run(ctx context.Context, t Tool, opt Options) (*Measurement, error) {
	dir, err := os.MkdirTemp(opt.TempDir, "boardbench-hpl-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	hpcc := t.Name == "hpcc"
	m := &Measurement{Input: Input(opt.Params, hpcc)}
	inName := "HPL.dat"
	if hpcc {
		inName = "hpccinf.txt"
	}
	if err := os.WriteFile(filepath.Join(dir, inName), []byte(m.Input), 0o600); err != nil {
		return m, err
	}
	procs := opt.P * opt.Q
	m.Argv = []string{t.Path}
	if t.MPIRun != "" {
		m.Argv = []string{t.MPIRun, "-np", strconv.Itoa(procs), t.Path}
	}
	m.Env = runEnv(opt.Root, t.MPIRun != "", procs)
	var stdout, stderr capped
	stdout.max, stderr.max = maxOutput, maxOutput
	exit, _, err := proc.Run(ctx, proc.Spec{Argv: m.Argv, Dir: dir, Env: append(os.Environ(), m.Env...),
		CPUs: opt.CPUs, Stdout: &stdout, Stderr: &stderr})
	m.Exit, m.Stderr = exit, stderr.String()
	m.Output = stdout.String()
	if hpcc {
		b, rerr := regfile.Head(filepath.Join(dir, "hpccoutf.txt"), maxOutput, regfile.NoFollow)
		if rerr == nil {
			m.Output = string(b)
		} else if err == nil {
			err = fmt.Errorf("hpcc wrote no hpccoutf.txt: %w", rerr)
		}
	}
	if err == nil && (exit.Code != 0 || exit.Signal != "") {
		err = &proc.ExitError{Command: strings.Join(m.Argv, " "), Exit: exit, StderrLine: lastLine(m.Stderr)}
	}
	var perr error
	if hpcc {
		m.Parsed, perr = ParseHPCC(m.Output)
	} else {
		m.Parsed, perr = ParseXHPL(m.Output)
	}
	if err != nil {
		return m, err
	}
	return m, perr
}

// runEnv is the environment added for the run: Open MPI's permission to
// run as root, and with several processes one BLAS thread each (a
// threaded OpenBLAS or BLIS would otherwise start a thread per CPU in
// every process).
func runEnv(root, mpi bool, procs int) []string {
	var env []string
	if mpi && root {
		env = append(env, "OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1")
	}
	if mpi {
		// More processes than Open MPI counts slots (cores it may use in
		// a container) must not make it refuse to start.
		env = append(env, "OMPI_MCA_rmaps_base_oversubscribe=1")
	}
	if procs > 1 {
		env = append(env, "OMP_NUM_THREADS=1", "OPENBLAS_NUM_THREADS=1", "BLIS_NUM_THREADS=1")
	}
	return env
}

// BLAS returns the library libblas.so.3 resolves to (Debian's alternatives
// choose the reference BLAS, OpenBLAS or BLIS), "" when there is none.
func BLAS() string {
	matches, _ := filepath.Glob("/usr/lib/*/libblas.so.3")
	for _, m := range matches {
		if p, err := filepath.EvalSymlinks(m); err == nil {
			return p
		}
	}
	return ""
}

// capped keeps the first max bytes written to it.
type capped struct {
	bytes.Buffer
	max int
}

// Write keeps what fits and reports everything as written.
func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// lastLine returns the last non-empty line of s.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
