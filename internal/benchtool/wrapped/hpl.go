package wrapped

import (
	"boardbench/internal/lazyre"
	"strings"
)

// HPLFigures are the results of HPL (High-Performance Linpack): one entry
// per solved system, with its residual check. A FAILED residual check means
// the machine computed a wrong answer (on boards typically an unstable CPU
// supply or clock): such a run invalidates every figure measured with it.
type HPLFigures struct {
	Runs []HPLRun `json:"runs"`
	// ResidualFailed is true when any residual check printed FAILED, or
	// the summary counts a failed test.
	ResidualFailed bool `json:"residual_failed"`
	// FailedTests is the summary's count of "tests completed and failed
	// residual checks"; nil when the summary is not in the output.
	FailedTests *int64 `json:"failed_tests"`
}

// HPLRun is one result line ("WR11C2R4  20000  192  2  2  123.45
// 4.3210e+01") and the residual check printed after it.
type HPLRun struct {
	// Variant is the T/V column: the algorithm variant, e.g. "WR11C2R4".
	Variant string `json:"variant"`
	// N is the problem size, NB the block size, P × Q the process grid.
	N  int64 `json:"n"`
	NB int64 `json:"nb"`
	P  int64 `json:"p"`
	Q  int64 `json:"q"`
	// TimeS is the solve time in seconds.
	TimeS float64 `json:"time_s"`
	// Gflops is the run's rate in GFLOPS.
	Gflops float64 `json:"gflops"`
	// Residual is the scaled residual
	// ||Ax-b||_oo/(eps*(||A||_oo*||x||_oo+||b||_oo)*N); nil when no check
	// was printed for this run.
	Residual *float64 `json:"residual"`
	// Check is "PASSED", "FAILED" or "" when no check was printed.
	Check string `json:"check"`
}

var (
	hplVersionRE  = lazyre.Regexp(`HPLinpack\s+(\d+(?:\.\d+)+)`)
	hplRunRE      = lazyre.Regexp(`^(W[RC]\d{2}[LCR]\d[LCR]\d)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(\S+)`)
	hplResidualRE = lazyre.Regexp(`^\|\|Ax-b\|\|.*=\s*(\S+)\s+\.+\s+(PASSED|FAILED)\b`)
	hplSummaryRE  = lazyre.Regexp(`(\d+)\s+tests? completed and failed residual checks`)
)

// parseHPL reads the result lines and residual checks of HPL's output.
func parseHPL(_ []string, out string, f *Figures) bool {
	fig := &HPLFigures{}
	for _, raw := range lines(out) {
		line := strings.TrimSpace(raw)
		if m := hplVersionRE.FindStringSubmatch(line); m != nil && f.Version == "" {
			f.Version = m[1]
		}
		if m := hplSummaryRE.FindStringSubmatch(line); m != nil {
			if n, ok := integer(m[1]); ok {
				fig.FailedTests = &n
				if n > 0 {
					fig.ResidualFailed = true
				}
			}
		}
		if m := hplRunRE.FindStringSubmatch(line); m != nil {
			if run, ok := hplRun(m); ok {
				fig.Runs = append(fig.Runs, run)
			}
			continue
		}
		if m := hplResidualRE.FindStringSubmatch(line); m != nil && len(fig.Runs) > 0 {
			run := &fig.Runs[len(fig.Runs)-1]
			// HPL 1.x prints three checks per run: any FAILED fails it.
			if run.Check != "FAILED" {
				run.Check = m[2]
				run.Residual = numberPtr(m[1])
			}
			if m[2] == "FAILED" {
				fig.ResidualFailed = true
			}
		}
	}
	if len(fig.Runs) == 0 {
		f.Version = ""
		return false
	}
	f.HPL = fig
	return true
}

func hplRun(m []string) (HPLRun, bool) {
	var ints [4]int64
	for i := range ints {
		v, ok := integer(m[2+i])
		if !ok || v <= 0 {
			return HPLRun{}, false
		}
		ints[i] = v
	}
	t, ok1 := number(m[6])
	g, ok2 := number(m[7])
	if !ok1 || !ok2 || t < 0 || g < 0 {
		return HPLRun{}, false
	}
	return HPLRun{Variant: m[1], N: ints[0], NB: ints[1], P: ints[2], Q: ints[3], TimeS: t, Gflops: g}, true
}

// FailedRuns returns the runs whose residual check printed FAILED.
func (h *HPLFigures) FailedRuns() []HPLRun {
	var out []HPLRun
	for _, r := range h.Runs {
		if r.Check == "FAILED" {
			out = append(out, r)
		}
	}
	return out
}

// ParseHPL reads HPL's result lines and residual checks from out (xhpl's
// output, or the HPL section of hpcc's hpccoutf.txt); version is the
// "HPLinpack X.Y" of its banner. figs is nil when out holds no result line.
func ParseHPL(out string) (figs *HPLFigures, version string) {
	var f Figures
	if !parseHPL(nil, out, &f) {
		return nil, ""
	}
	return f.HPL, f.Version
}
