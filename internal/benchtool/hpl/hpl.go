// Package hpl runs HPL (High-Performance Linpack): Debian's hpcc (the HPC
// Challenge suite, whose HPL section is read) or an xhpl found on PATH. It
// sizes the problem from the available memory, writes the input file
// (hpccinf.txt or HPL.dat) in a temporary working directory, starts the
// processes through mpirun where there is one, and parses the Gflops and
// the residual checks of the output.
package hpl

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"boardbench/internal/benchtool/wrapped"
	"boardbench/internal/result"
)

// Problem sizes.
const (
	// MemFraction is the share of MemAvailable the matrix (8·N² bytes)
	// may take: HPL's own advice is most of the memory for the best
	// figure, boardbench keeps the rest for the system and the monitor.
	MemFraction = 0.25
	// MaxN bounds N whatever the memory: the time grows with N³, and at
	// N = 20000 (the size the Raspberry Pi 4B seed used) a board with an
	// optimised BLAS needs several minutes.
	MaxN = 20000
	// MinN is the smallest N a standard run uses.
	MinN = 2000
	// QuickN is the size of a quick run: seconds even with the reference
	// BLAS, figures not comparable.
	QuickN = 1024
	// NB is the block size: 128 fits the L2 caches of current ARM and x86
	// cores with OpenBLAS or BLIS (the seed found 208 best on a Pi 4B with
	// BLIS; HPL's rate varies by a few percent between 96 and 256).
	NB = 128
	// QuickNB is the block size of a quick run.
	QuickNB = 64
)

// Params are one HPL run's parameters.
type Params struct {
	N, NB, P, Q int
}

// Size returns N and NB for memAvailable bytes (0 or less: unknown, which
// gives MinN): the largest multiple of NB whose matrix fits MemFraction of
// it, within MinN and MaxN. quick gives QuickN and QuickNB.
func Size(memAvailable int64, quick bool) (n, nb int) {
	if quick {
		return QuickN, QuickNB
	}
	nb = NB
	n = MinN
	if memAvailable > 0 {
		n = int(math.Sqrt(MemFraction * float64(memAvailable) / 8))
	}
	n = min(max(n, MinN), MaxN)
	return n / nb * nb, nb
}

// Grid returns the process grid P × Q for procs processes: P the largest
// divisor of procs not above its square root (HPL prefers P ≤ Q, nearly
// square).
func Grid(procs int) (p, q int) {
	if procs < 1 {
		return 1, 1
	}
	p = 1
	for d := 1; d*d <= procs; d++ {
		if procs%d == 0 {
			p = d
		}
	}
	return p, procs / p
}

// Input returns HPL's input file (HPL.dat) for one run of prm; for hpcc
// (hpccinf.txt) it adds hpcc's lines for PTRANS, which then measures the
// same N. Output goes to standard output (device 6) for xhpl; hpcc writes
// its own hpccoutf.txt whatever the file says.
func Input(prm Params, hpcc bool) string {
	var b strings.Builder
	row := func(v, what string) { fmt.Fprintf(&b, "%-12s %s\n", v, what) }
	b.WriteString("HPLinpack benchmark input file\n")
	b.WriteString("written by boardbench\n")
	row("HPL.out", "output file name (if any)")
	row("6", "device out (6=stdout,7=stderr,file)")
	row("1", "# of problems sizes (N)")
	row(strconv.Itoa(prm.N), "Ns")
	row("1", "# of NBs")
	row(strconv.Itoa(prm.NB), "NBs")
	row("0", "PMAP process mapping (0=Row-,1=Column-major)")
	row("1", "# of process grids (P x Q)")
	row(strconv.Itoa(prm.P), "Ps")
	row(strconv.Itoa(prm.Q), "Qs")
	row("16.0", "threshold")
	row("1", "# of panel fact")
	row("2", "PFACTs (0=left, 1=Crout, 2=Right)")
	row("1", "# of recursive stopping criterium")
	row("4", "NBMINs (>= 1)")
	row("1", "# of panels in recursion")
	row("2", "NDIVs")
	row("1", "# of recursive panel fact.")
	row("1", "RFACTs (0=left, 1=Crout, 2=Right)")
	row("1", "# of broadcast")
	row("1", "BCASTs (0=1rg,1=1rM,2=2rg,3=2rM,4=Lng,5=LnM)")
	row("1", "# of lookahead depth")
	row("1", "DEPTHs (>=0)")
	row("2", "SWAP (0=bin-exch,1=long,2=mix)")
	row("64", "swapping threshold")
	row("0", "L1 in (0=transposed,1=no-transposed) form")
	row("0", "U  in (0=transposed,1=no-transposed) form")
	row("1", "Equilibration (0=no,1=yes)")
	row("8", "memory alignment in double (> 0)")
	if hpcc {
		b.WriteString("##### This line (no. 32) is ignored (it serves as a separator). ######\n")
		row("0", "Number of additional problem sizes for PTRANS")
		row(strconv.Itoa(prm.N), "values of N")
		row("0", "number of additional blocking sizes for PTRANS")
		row(strconv.Itoa(prm.NB), "values of NB")
	}
	return b.String()
}

// Output is what an HPL run printed, parsed.
type Output struct {
	// HPL holds the result lines and residual checks; nil when none.
	HPL *wrapped.HPLFigures
	// HPLVersion is the banner's "HPLinpack X.Y".
	HPLVersion string
	// HPCCVersion is hpcc's version ("1.5.0f") from its summary section;
	// "" for xhpl.
	HPCCVersion string
}

// constError is an error whose value is its text, so that a sentinel
// error is a constant: static data that costs nothing when boardbench
// starts (errors.New would run at init). errors.Is and == match it.
type constError string

func (e constError) Error() string { return string(e) }

// ErrNoResult means the output holds no HPL result line.
const ErrNoResult = constError("no HPL result line in the output")

// ParseHPCC reads hpcc's hpccoutf.txt: the HPL section (between "Begin of
// HPL section." and "End of HPL section.", so that PTRANS's own residual
// summary is not taken for HPL's) and the version from the summary.
func ParseHPCC(out string) (Output, error) {
	var o Output
	section, ok := between(out, "Begin of HPL section.", "End of HPL section.")
	if !ok {
		return o, errors.New("no HPL section in hpcc's output (hpcc stopped before HPL, or it is not hpcc's output)")
	}
	o.HPL, o.HPLVersion = wrapped.ParseHPL(section)
	if sum, ok := between(out, "Begin of Summary section.", "End of Summary section."); ok {
		o.HPCCVersion = hpccVersion(sum)
	}
	if o.HPL == nil {
		return o, ErrNoResult
	}
	return o, nil
}

// ParseXHPL reads xhpl's standard output.
func ParseXHPL(out string) (Output, error) {
	var o Output
	o.HPL, o.HPLVersion = wrapped.ParseHPL(out)
	if o.HPL == nil {
		return o, ErrNoResult
	}
	return o, nil
}

// between returns the text between the lines start and end (end missing:
// to the end of s, ok only when start is there).
func between(s, start, end string) (string, bool) {
	i := strings.Index(s, start)
	if i < 0 {
		return "", false
	}
	s = s[i+len(start):]
	if j := strings.Index(s, end); j >= 0 {
		s = s[:j]
	}
	return s, true
}

// hpccVersion joins the summary's VersionMajor, Minor, Micro and Release:
// "1.5.0f"; "" when any number is missing.
func hpccVersion(summary string) string {
	kv := map[string]string{}
	for _, line := range strings.Split(summary, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if ok {
			kv[k] = v
		}
	}
	var parts []string
	for _, k := range []string{"VersionMajor", "VersionMinor", "VersionMicro"} {
		if _, err := strconv.Atoi(kv[k]); err != nil {
			return ""
		}
		parts = append(parts, kv[k])
	}
	v := strings.Join(parts, ".")
	if r := kv["VersionRelease"]; len(r) <= 2 && strings.Trim(r, "abcdefghijklmnopqrstuvwxyz") == "" {
		v += r
	}
	return v
}

// Figures converts o into the phase's figures: the runs, the residual
// checks and the best rate.
func (o Output) Figures() result.HPLFigures {
	f := result.HPLFigures{HPLVersion: o.HPLVersion, Runs: []result.HPLRun{}}
	if o.HPL == nil {
		return f
	}
	f.ResidualFailed, f.FailedTests = o.HPL.ResidualFailed, o.HPL.FailedTests
	for _, r := range o.HPL.Runs {
		f.Runs = append(f.Runs, result.HPLRun{Variant: r.Variant, N: r.N, NB: r.NB, P: r.P, Q: r.Q,
			TimeS: r.TimeS, Gflops: r.Gflops, Residual: r.Residual, Check: r.Check})
		if f.Gflops == nil || r.Gflops > *f.Gflops {
			g := r.Gflops
			f.Gflops = &g
		}
	}
	return f
}
