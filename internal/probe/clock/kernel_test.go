package clock

import (
	"context"
	"math"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"boardbench/internal/host"
)

func TestChainKnownValues(t *testing.T) {
	// Fibonacci: after n adds the chain's first word is F(n+1).
	tests := []struct {
		ops  uint64
		want uint64
	}{
		{0, 1}, {1, 1}, {2, 2}, {3, 2}, {4, 5}, {6, 13}, {10, 89}, {20, 10946},
	}
	for _, tt := range tests {
		if got := Chain(tt.ops); got != tt.want {
			t.Errorf("Chain(%d) = %d, want %d", tt.ops, got, tt.want)
		}
	}
}

// TestKernelRunsExactOps checks that the kernel of this architecture runs
// exactly OpsPerIteration dependent adds per iteration: any missing, extra or
// reordered add changes the Fibonacci word it returns. Run it under qemu for
// the other architectures (scripts/cross-check.sh).
func TestKernelRunsExactOps(t *testing.T) {
	t.Logf("kernel: %s (certain: %v)", Method, Certain)
	for _, n := range []uint64{0, 1, 2, 3, 7, 64, 1000} {
		got := Loop(n)
		want := Chain(n * OpsPerIteration)
		if got != want {
			t.Errorf("%s: Loop(%d) = %#x, want Chain(%d) = %#x", Method, n, got, n*OpsPerIteration, want)
		}
	}
}

func TestPortableKernelMatchesChain(t *testing.T) {
	for _, n := range []uint{0, 1, 5, 33} {
		got := uint64(portableKernel(n))
		want := Chain(uint64(n) * OpsPerIteration)
		if got != want {
			t.Errorf("portableKernel(%d) = %#x, want %#x", n, got, want)
		}
	}
}

func TestMethodMatchesCertainty(t *testing.T) {
	if (Method == "portable") == Certain {
		t.Errorf("Method %q with Certain=%v: the portable kernel must be uncertain, assembly certain", Method, Certain)
	}
	if Method != "portable" && Method != "asm-"+runtime.GOARCH {
		t.Errorf("Method = %q", Method)
	}
}

func TestMHzFrom(t *testing.T) {
	tests := []struct {
		iterations uint64
		elapsed    time.Duration
		want       float64
	}{
		// 1000 iterations * 1024 ops in 1024 µs: 1000 ops per µs = 1000 MHz.
		{1000, 1024 * time.Microsecond, 1000},
		{1, 0, 0},
		{2000, 1024 * time.Microsecond, 2000},
	}
	for _, tt := range tests {
		if got := MHzFrom(tt.iterations, tt.elapsed); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("MHzFrom(%d, %v) = %v, want %v", tt.iterations, tt.elapsed, got, tt.want)
		}
	}
}

func TestOptionsDefaults(t *testing.T) {
	o := Options{SampleDuration: time.Second}.withDefaults()
	if o.Samples != DefaultSamples || o.Warmup != DefaultWarmup || o.SampleDuration != MaxSampleDuration {
		t.Errorf("withDefaults = %+v", o)
	}
}

// TestMeasureShape runs a short real measurement and checks its structure,
// never its speed (machines and emulators vary).
func TestMeasureShape(t *testing.T) {
	cpus, err := host.AllowedCPUs()
	if err != nil || len(cpus) == 0 {
		t.Skipf("cannot read the allowed CPUs: %v", err)
	}
	opt := Options{Samples: 3, SampleDuration: 2 * time.Millisecond, Warmup: 2 * time.Millisecond}
	r, err := Measure(context.Background(), cpus[0], opt)
	if err != nil {
		t.Fatalf("Measure(cpu%d): %v", cpus[0], err)
	}
	t.Logf("%v, samples %v, disturbed %v", r, r.Summary.Samples, r.Disturbed)
	// Samples another task interrupted are retaken, up to 3 attempts each.
	// On a loaded machine every attempt may be disturbed: the summary then
	// holds all of them (up to 9), marked, and none is set aside.
	maxN := 3
	if r.AllDisturbed {
		maxN = 9
	}
	if r.CPU != cpus[0] || r.Summary.N < 1 || r.Summary.N > maxN || len(r.SampleDurations) != r.Summary.N ||
		r.Summary.N+len(r.Disturbed) > 9 || r.Iterations == 0 {
		t.Errorf("result = %+v", r)
	}
	if r.AllDisturbed && len(r.Disturbed) != 0 {
		t.Errorf("all samples disturbed, yet %d set aside", len(r.Disturbed))
	}
	if !(r.MHz > 0) || r.MHz < r.Summary.Min || r.MHz > r.Summary.Max {
		t.Errorf("median %v outside samples [%v, %v]", r.MHz, r.Summary.Min, r.Summary.Max)
	}
	if r.Method != Method || r.Certain != Certain {
		t.Errorf("method %q certain %v", r.Method, r.Certain)
	}
}

func TestMeasureRejectsBadCPU(t *testing.T) {
	if _, err := Measure(context.Background(), 100000, Options{Samples: 1}); err == nil {
		t.Error("Measure on cpu 100000 succeeded, want a pinning error")
	}
}

func TestMeasureHonoursCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Measure(ctx, -1, Options{Samples: 1}); err == nil {
		t.Error("Measure with a cancelled context succeeded")
	}
}

// BenchmarkMeasureAccuracy measures the clock of the first allowed CPU with
// the default options and reports it next to the "cpu MHz" of
// /proc/cpuinfo (on x86 without cpufreq: the nominal clock). Run with
//
//	go test -run '^$' -bench MeasureAccuracy -benchtime 5x ./internal/probe/clock
func BenchmarkMeasureAccuracy(b *testing.B) {
	cpus, err := host.AllowedCPUs()
	if err != nil || len(cpus) == 0 {
		b.Skipf("cannot read the allowed CPUs: %v", err)
	}
	nominal := nominalMHz(b, cpus[0])
	var last Result
	for i := 0; i < b.N; i++ {
		r, err := Measure(context.Background(), cpus[0], Options{})
		if err != nil {
			b.Fatal(err)
		}
		last = r
	}
	b.ReportMetric(last.MHz, "MHz")
	b.ReportMetric(last.SpreadPct(), "spread_pct")
	b.ReportMetric(float64(last.MeanSampleDuration().Microseconds())/1000, "ms/sample")
	if nominal > 0 {
		b.ReportMetric(nominal, "cpuinfo_MHz")
		b.ReportMetric(100*(last.MHz-nominal)/nominal, "dev_pct")
	}
}

// nominalMHz returns the "cpu MHz" line of /proc/cpuinfo for cpu, 0 when
// there is none.
func nominalMHz(b *testing.B, cpu int) float64 {
	h, err := host.New("/")
	if err != nil {
		return 0
	}
	data, err := h.ReadFile("/proc/cpuinfo")
	if err != nil {
		return 0
	}
	current := -1
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "processor":
			current, _ = strconv.Atoi(v)
		case "cpu MHz":
			if current == cpu {
				f, _ := strconv.ParseFloat(v, 64)
				return f
			}
		}
	}
	return 0
}
