package sevenzip

import (
	"testing"

	"boardbench/internal/host"
	"boardbench/internal/proc"
	"boardbench/internal/testutil/need"
	"boardbench/internal/tools"
)

// TestLiveSevenZip runs the real 7-Zip benchmark of this machine once,
// single-threaded with a small dictionary and one pass (about 10 s), pinned
// to one CPU. Skipped with -short and when no 7-Zip is installed (a
// failure under CI=true). No wall-clock limit of its own: on a loaded
// machine 7-Zip may get a small share of a CPU, and the test binary's
// -timeout bounds the run.
func TestLiveSevenZip(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the real 7-Zip benchmark for about 10 s; skipped with -short")
	}
	h, err := host.New("/")
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	tool, notes := tools.FindSevenZip(ctx, h)
	if tool == nil {
		need.Missing(t, "no 7-Zip (7zz, 7z, 7za, 7zr) installed: %v", notes)
	}
	cpus, err := host.AllowedCPUs()
	if err != nil || len(cpus) == 0 {
		t.Fatalf("allowed CPUs: %v %v", cpus, err)
	}
	cpu := cpus[len(cpus)-1]
	m, err := Run(ctx, proc.ForHost(h), *tool, Options{Threads: 1, CPUs: []int{cpu}, DictLog2: 18, Passes: 1})
	if err != nil {
		t.Fatalf("%s %v: %v\n%s", tool.Path, m.Args, err, m.RawOutput)
	}
	r := m.Result
	t.Logf("%s (%s %s) on cpu%d: Tot rating %d MIPS in %.1f s", tool.Path, tool.Flavor, tool.Version, cpu, r.Total.RatingMIPS, m.DurationS)
	if r.Total.RatingMIPS <= 0 || len(r.Rows) != 1 || r.Rows[0].DictLog2 != 18 {
		t.Errorf("unexpected result %+v", r)
	}
	if r.Version != tool.Version {
		t.Errorf("benchmark banner says %q, tool identified as %q", r.Version, tool.Version)
	}
	if r.BenchmarkThreads == nil || *r.BenchmarkThreads != 1 {
		t.Errorf("benchmark threads = %v, want 1", r.BenchmarkThreads)
	}
}
