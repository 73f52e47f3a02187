package hpl

import (
	"os"
	"strings"
	"testing"
)

// realHPCC is a trimmed hpccoutf.txt of Debian 12's hpcc 1.5.0 (mpirun -np
// 2, N=2000, NB=128, reference BLAS) on this project's amd64 machine: the
// header, the PTRANS, HPL and summary sections as printed.
const realHPCC = "testdata/hpcc-1.5.0-debian12-amd64-np2.hpccoutf.txt"

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestParseHPCCReal(t *testing.T) {
	o, err := ParseHPCC(readTestdata(t, realHPCC))
	if err != nil {
		t.Fatal(err)
	}
	if o.HPCCVersion != "1.5.0f" || o.HPLVersion != "2.0" {
		t.Errorf("versions = %q, %q; want 1.5.0f, 2.0", o.HPCCVersion, o.HPLVersion)
	}
	f := o.Figures()
	if len(f.Runs) != 1 {
		t.Fatalf("runs = %+v", f.Runs)
	}
	r := f.Runs[0]
	if r.Variant != "WR11C2R4" || r.N != 2000 || r.NB != 128 || r.P != 1 || r.Q != 2 || r.TimeS != 14.43 || r.Gflops != 0.3701 {
		t.Errorf("run = %+v", r)
	}
	if r.Check != "PASSED" || r.Residual == nil || *r.Residual != 0.0058305 {
		t.Errorf("check = %q %v", r.Check, r.Residual)
	}
	if f.Gflops == nil || *f.Gflops != 0.3701 || f.ResidualFailed || f.FailedTests == nil || *f.FailedTests != 0 {
		t.Errorf("figures = %+v", f)
	}
}

// TestParseHPCCFailed: the same real output with HPL's check failed
// (residual and summary as HPL prints them for a wrong result).
func TestParseHPCCFailed(t *testing.T) {
	out := readTestdata(t, realHPCC)
	out = strings.Replace(out, "=        0.0058305 ...... PASSED", "=     2145.6271040 ...... FAILED", 1)
	out = strings.Replace(out, "1 tests completed and passed residual checks,\n              0 tests completed and failed",
		"0 tests completed and passed residual checks,\n              1 tests completed and failed", 1)
	o, err := ParseHPCC(out)
	if err != nil {
		t.Fatal(err)
	}
	f := o.Figures()
	if !f.ResidualFailed || f.FailedTests == nil || *f.FailedTests != 1 || f.Runs[0].Check != "FAILED" || *f.Runs[0].Residual != 2145.627104 {
		t.Errorf("figures = %+v", f)
	}
}

// TestParseHPCCSectionOnly: PTRANS's residual summary is not HPL's; a
// failed PTRANS does not make HPL's check fail.
func TestParseHPCCSectionOnly(t *testing.T) {
	out := strings.Replace(readTestdata(t, realHPCC), "    0 tests completed and failed residual checks.", "    3 tests completed and failed residual checks.", 1)
	o, err := ParseHPCC(out)
	if err != nil {
		t.Fatal(err)
	}
	if f := o.Figures(); f.ResidualFailed || *f.FailedTests != 0 {
		t.Errorf("PTRANS's summary taken for HPL's: %+v", f)
	}
}

func TestParseBad(t *testing.T) {
	real := readTestdata(t, realHPCC)
	hplOnly, _ := between(real, "Begin of HPL section.", "End of HPL section.")
	tests := []struct {
		name string
		out  string
		hpcc bool
		ok   bool
	}{
		{"empty hpcc", "", true, false},
		{"hpcc stopped before HPL", real[:strings.Index(real, "Begin of HPL section.")], true, false},
		{"HPL section without result", "Begin of HPL section.\nHPLinpack 2.0\nEnd of HPL section.\n", true, false},
		{"cut inside a result line", real[:strings.Index(real, "WR11C2R4")+12], true, false},
		{"xhpl output", hplOnly, false, true},
		{"xhpl garbage", "\x00\xff WR11C2R4 x y z", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var err error
			if tt.hpcc {
				_, err = ParseHPCC(tt.out)
			} else {
				_, err = ParseXHPL(tt.out)
			}
			if (err == nil) != tt.ok {
				t.Errorf("err = %v, want ok=%v", err, tt.ok)
			}
		})
	}
}

func TestSize(t *testing.T) {
	const gib = 1 << 30
	tests := []struct {
		name      string
		mem       int64
		quick     bool
		wantN, nb int
	}{
		{"quick", 64 * gib, true, QuickN, QuickNB},
		{"unknown memory", 0, false, MinN / NB * NB, NB},
		{"tiny board", 20 << 20, false, MinN / NB * NB, NB},
		// sqrt(0.25 * 3.5 GiB / 8) = 10842 -> 10752
		{"Pi 4B 4 GB", 3584 << 20, false, 10752, NB},
		{"big machine", 64 * gib, false, MaxN / NB * NB, NB},
	}
	for _, tt := range tests {
		n, nb := Size(tt.mem, tt.quick)
		if n != tt.wantN || nb != tt.nb {
			t.Errorf("%s: Size = %d, %d; want %d, %d", tt.name, n, nb, tt.wantN, tt.nb)
		}
		fits := 8*float64(n)*float64(n) <= MemFraction*float64(tt.mem)
		if n%nb != 0 || (!tt.quick && n > MinN && !fits) {
			t.Errorf("%s: N=%d does not fit", tt.name, n)
		}
	}
}

func TestGrid(t *testing.T) {
	for _, tt := range []struct{ procs, p, q int }{{0, 1, 1}, {1, 1, 1}, {2, 1, 2}, {4, 2, 2}, {6, 2, 3}, {8, 2, 4}, {7, 1, 7}, {12, 3, 4}} {
		if p, q := Grid(tt.procs); p != tt.p || q != tt.q {
			t.Errorf("Grid(%d) = %d×%d, want %d×%d", tt.procs, p, q, tt.p, tt.q)
		}
	}
}

func TestInput(t *testing.T) {
	in := Input(Params{N: 4096, NB: 128, P: 2, Q: 2}, true)
	lines := strings.Split(in, "\n")
	// HPL reads its parameters by line number.
	for i, want := range map[int]string{5: "4096 ", 7: "128 ", 10: "2 ", 11: "2 ", 31: "##### This line", 33: "4096 "} {
		if !strings.HasPrefix(lines[i], want) {
			t.Errorf("line %d = %q, want prefix %q", i+1, lines[i], want)
		}
	}
	if x := Input(Params{N: 4096, NB: 128, P: 1, Q: 1}, false); strings.Contains(x, "PTRANS") || strings.Count(x, "\n") != 31 {
		t.Errorf("HPL.dat has %d lines or PTRANS lines:\n%s", strings.Count(x, "\n"), x)
	}
}

func TestFind(t *testing.T) {
	have := func(names ...string) LookPath {
		return func(n string) (string, error) {
			for _, x := range names {
				if x == n {
					return "/usr/bin/" + n, nil
				}
			}
			return "", os.ErrNotExist
		}
	}
	if tl, err := Find(have("hpcc", "xhpl", "mpirun")); err != nil || tl.Name != "xhpl" || tl.MPIRun != "/usr/bin/mpirun" {
		t.Errorf("Find = %+v, %v", tl, err)
	}
	if tl, err := Find(have("hpcc")); err != nil || tl.Name != "hpcc" || tl.MPIRun != "" {
		t.Errorf("Find = %+v, %v", tl, err)
	}
	if _, err := Find(have("mpirun")); err != ErrNotFound {
		t.Errorf("Find without HPL: %v", err)
	}
}

func TestRunEnv(t *testing.T) {
	env := strings.Join(runEnv(true, true, 4), " ")
	for _, want := range []string{"OMPI_ALLOW_RUN_AS_ROOT=1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1", "OPENBLAS_NUM_THREADS=1"} {
		if !strings.Contains(env, want) {
			t.Errorf("env %q lacks %s", env, want)
		}
	}
	if env := runEnv(false, false, 1); len(env) != 0 {
		t.Errorf("single process without MPI as a user: env %q", env)
	}
}
