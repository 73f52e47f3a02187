package wrapped

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readTestdata(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9*math.Max(1, math.Abs(b)) }

func TestRecognize(t *testing.T) {
	cases := []struct {
		name      string
		argv      []string
		file      string
		benchmark string
		by        string
		version   string
		check     func(t *testing.T, f Figures)
	}{
		{
			name: "7zz by command, two runs, the second disturbed", argv: []string{"/usr/bin/7zz", "b"}, file: "7zz-two-runs.txt",
			benchmark: SevenZip, by: ByCommand, version: "24.09",
			check: func(t *testing.T, f Figures) {
				s := f.SevenZip
				if len(s.Runs) != 2 || s.Runs[0].RatingMIPS != 5250 || s.Runs[1].RatingMIPS != 3640 {
					t.Fatalf("runs = %+v", s.Runs)
				}
				if s.Runs[0].UsagePct != 374 || s.Runs[1].UsagePct != 268 || s.Runs[1].RUMIPS != 1359 {
					t.Errorf("usage/RU = %+v", s.Runs)
				}
				if *s.Runs[0].BenchmarkThreads != 4 || *s.Runs[0].HardwareThreads != 4 || s.Single {
					t.Errorf("threads: %+v single %v", s.Runs[0], s.Single)
				}
				if !near(s.MeanRatingMIPS, 4445) {
					t.Errorf("mean = %v", s.MeanRatingMIPS)
				}
			},
		},
		{
			name: "7zz inside sh -c, by output", argv: []string{"sh", "-c", "7zz b -mmt1 | tee log"}, file: "7zz-two-runs.txt",
			benchmark: SevenZip, by: ByOutput, version: "24.09",
			check: func(t *testing.T, f Figures) {
				if !f.SevenZip.Single {
					t.Error("-mmt1 in the shell command not seen")
				}
			},
		},
		{
			name: "openssl speed", argv: []string{"openssl", "speed", "-elapsed", "-evp", "aes-256-cbc"}, file: "openssl-speed.txt",
			benchmark: OpenSSL, by: ByCommand, version: "3.0.15",
			check: func(t *testing.T, f Figures) {
				v := f.OpenSSL.KBPerSec("aes-256-cbc", 16384)
				if v == nil || !near(*v, 458620.93) {
					t.Errorf("aes-256-cbc 16K = %v", v)
				}
			},
		},
		{
			name: "stress-ng 0.13 --metrics-brief", argv: []string{"stress-ng", "--cpu", "4", "--matrix", "2", "--metrics-brief", "-t", "60"},
			file: "stress-ng-0.13-metrics-brief.txt", benchmark: StressNG, by: ByCommand,
			check: func(t *testing.T, f Figures) {
				s := f.StressNG
				if len(s.Stressors) != 2 || !s.Completed {
					t.Fatalf("stressors = %+v, completed %v", s.Stressors, s.Completed)
				}
				c, m := s.Stressors[0], s.Stressors[1]
				if c.Stressor != "cpu" || c.BogoOps != 41876 || !near(c.RealTimeS, 60) || !near(c.UsrTimeS, 239.41) ||
					!near(c.SysTimeS, 0.08) || !near(c.BogoOpsPerSReal, 697.93) || !near(c.BogoOpsPerSUsrSys, 174.86) || c.CPUUsedPerInstancePct != nil {
					t.Errorf("cpu = %+v", c)
				}
				if m.Stressor != "matrix" || m.BogoOps != 88210 || !near(m.BogoOpsPerSReal, 1469.92) {
					t.Errorf("matrix = %+v", m)
				}
			},
		},
		{
			name: "stress-ng 0.17 --metrics (metrc lines, CPU used column), by output", argv: []string{"bash", "run.sh"},
			file: "stress-ng-0.17-metrics.txt", benchmark: StressNG, by: ByOutput,
			check: func(t *testing.T, f Figures) {
				c := f.StressNG.Stressors[0]
				if len(f.StressNG.Stressors) != 1 || c.BogoOps != 196402 || !near(c.BogoOpsPerSReal, 6546.71) ||
					c.CPUUsedPerInstancePct == nil || !near(*c.CPUUsedPerInstancePct, 99.93) || !f.StressNG.Completed {
					t.Errorf("stress-ng = %+v", f.StressNG)
				}
			},
		},
		{
			name: "sysbench cpu", argv: []string{"sysbench", "cpu", "--threads=4", "run"}, file: "sysbench-cpu.txt",
			benchmark: Sysbench, by: ByCommand, version: "1.0.20",
			check: func(t *testing.T, f Figures) {
				s := f.Sysbench
				if s.Test != "cpu" || *s.Threads != 4 || !near(*s.EventsPerSecond, 5873.42) || *s.TotalEvents != 58741 ||
					!near(*s.TotalTimeS, 10.0006) || !near(*s.LatencyAvgMs, 0.68) || *s.LatencyPercentile != 95 ||
					!near(*s.LatencyPctMs, 0.69) || !near(*s.LatencyMaxMs, 8.81) || s.MiBPerSec != nil {
					t.Errorf("sysbench = %+v", s)
				}
			},
		},
		{
			name: "sysbench memory, by output", argv: []string{"./bench.sh"}, file: "sysbench-memory.txt",
			benchmark: Sysbench, by: ByOutput, version: "1.0.20",
			check: func(t *testing.T, f Figures) {
				s := f.Sysbench
				if s.Test != "memory" || !near(*s.MiBPerSec, 3892.26) || !near(*s.MiBTransferred, 38927.48) || s.EventsPerSecond != nil {
					t.Errorf("sysbench = %+v", s)
				}
			},
		},
		{
			name: "sysbench threads", argv: []string{"sysbench", "threads", "--threads=8", "run"}, file: "sysbench-threads.txt",
			benchmark: Sysbench, by: ByCommand, version: "1.0.20",
			check: func(t *testing.T, f Figures) {
				s := f.Sysbench
				if s.Test != "threads" || *s.TotalEvents != 21503 || !near(*s.LatencyAvgMs, 3.72) || !near(*s.LatencyPctMs, 9.73) || s.EventsPerSecond != nil {
					t.Errorf("sysbench = %+v", s)
				}
			},
		},
		{
			name: "llama-bench", argv: []string{"./build/bin/llama-bench", "-m", "qwen2-1.5b.gguf", "-t", "4"}, file: "llama-bench.txt",
			benchmark: LlamaBench, by: ByCommand, version: "build 4589 (3f1ae2e3)",
			check: func(t *testing.T, f Figures) {
				r := f.LlamaBench.Rows
				if len(r) != 2 {
					t.Fatalf("rows = %+v", r)
				}
				if r[0].Model != "qwen2 1.5B Q4_K - Medium" || r[0].Size != "1.04 GiB" || r[0].Params != "1.78 B" || r[0].Backend != "CPU" ||
					*r[0].Threads != 4 || r[0].Test != "pp512" || !near(r[0].TokensPerS, 41.37) || !near(*r[0].TokensPerSStddev, 0.22) {
					t.Errorf("row 0 = %+v", r[0])
				}
				if r[1].Test != "tg128" || !near(r[1].TokensPerS, 9.85) {
					t.Errorf("row 1 = %+v", r[1])
				}
			},
		},
		{
			name: "Geekbench 6 with scores; claim key never kept", argv: []string{"./geekbench6"}, file: "geekbench6.txt",
			benchmark: Geekbench, by: ByCommand, version: "6.4.0",
			check: func(t *testing.T, f Figures) {
				g := f.Geekbench
				if g.ResultURL != "https://browser.geekbench.com/v6/cpu/9876543" || *g.SingleCoreScore != 812 || *g.MultiCoreScore != 1733 {
					t.Errorf("geekbench = %+v", g)
				}
				b, _ := json.Marshal(f)
				if strings.Contains(string(b), "claim") || strings.Contains(string(b), "123987") {
					t.Errorf("claim key kept: %s", b)
				}
			},
		},
		{
			name: "Geekbench URL only", argv: []string{"geekbench_aarch64", "--cpu"}, file: "geekbench6-url-only.txt",
			benchmark: Geekbench, by: ByCommand, version: "6.2.2",
			check: func(t *testing.T, f Figures) {
				g := f.Geekbench
				if g.ResultURL != "https://browser.geekbench.com/v6/cpu/5550123" || g.SingleCoreScore != nil || g.MultiCoreScore != nil {
					t.Errorf("geekbench = %+v", g)
				}
			},
		},
		{
			name: "HPL passed", argv: []string{"mpirun", "-np", "4", "./xhpl"}, file: "hpl-passed.txt",
			benchmark: HPL, by: ByCommand, version: "2.3",
			check: func(t *testing.T, f Figures) {
				h := f.HPL
				if len(h.Runs) != 1 || h.ResidualFailed || *h.FailedTests != 0 {
					t.Fatalf("hpl = %+v", h)
				}
				r := h.Runs[0]
				if r.Variant != "WR11C2R4" || r.N != 14000 || r.NB != 128 || r.P != 1 || r.Q != 4 || !near(r.TimeS, 71.93) ||
					!near(r.Gflops, 25.434) || r.Check != "PASSED" || !near(*r.Residual, 2.81734512e-03) {
					t.Errorf("run = %+v", r)
				}
			},
		},
		{
			name: "HPL with a FAILED residual, by output", argv: []string{"sh", "-c", "cd hpl && ./run"}, file: "hpl-failed.txt",
			benchmark: HPL, by: ByOutput, version: "2.3",
			check: func(t *testing.T, f Figures) {
				h := f.HPL
				if len(h.Runs) != 2 || !h.ResidualFailed || *h.FailedTests != 1 {
					t.Fatalf("hpl = %+v", h)
				}
				if h.Runs[0].Check != "PASSED" || h.Runs[1].Check != "FAILED" || !near(*h.Runs[1].Residual, 8.92117740e+11) {
					t.Errorf("runs = %+v", h.Runs)
				}
				if fr := h.FailedRuns(); len(fr) != 1 || !near(fr[0].Gflops, 21.931) {
					t.Errorf("failed runs = %+v", fr)
				}
			},
		},
		{
			name: "cpuminer-multi scrypt benchmark", argv: []string{"cpuminer", "--benchmark", "--algo=scrypt"}, file: "cpuminer-multi-scrypt.txt",
			benchmark: CPUMiner, by: ByCommand, version: "1.3.7",
			check: func(t *testing.T, f Figures) {
				c := f.CPUMiner
				if c.Build != "cpuminer-multi" || c.Algorithm != "scrypt" || *c.Threads != 4 || len(c.TotalKHs) != 3 || !near(c.MedianKHs, 13.62) {
					t.Errorf("cpuminer = %+v", c)
				}
			},
		},
		{
			name: "pooler minerd khash/s", argv: []string{"minerd", "--benchmark"}, file: "minerd-pooler.txt",
			benchmark: CPUMiner, by: ByCommand, version: "2.5.1",
			check: func(t *testing.T, f Figures) {
				c := f.CPUMiner
				if c.Build != "cpuminer" || len(c.TotalKHs) != 2 || !near(c.MedianKHs, 4.19) {
					t.Errorf("cpuminer = %+v", c)
				}
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, ok := Recognize(tc.argv, readTestdata(t, tc.file))
			if !ok {
				t.Fatal("not recognised")
			}
			if f.Benchmark != tc.benchmark || f.RecognizedBy != tc.by || f.Version != tc.version {
				t.Errorf("benchmark %q by %q version %q, want %q by %q version %q", f.Benchmark, f.RecognizedBy, f.Version, tc.benchmark, tc.by, tc.version)
			}
			if !f.HasResult() || len(f.Notes) > 0 {
				t.Fatalf("no result: %+v", f)
			}
			tc.check(t, f)
			if _, err := json.Marshal(f); err != nil {
				t.Errorf("marshal: %v", err)
			}
		})
	}
}

func TestRecognizeNothing(t *testing.T) {
	cases := []struct {
		name   string
		argv   []string
		out    string
		ok     bool
		bench  string
		noteOn bool
	}{
		{name: "unknown command and output", argv: []string{"make", "-j4"}, out: "cc -O2 -c a.c\nTotal: 3 files\n"},
		{name: "empty", argv: nil, out: ""},
		{name: "named benchmark without result", argv: []string{"7zz", "b"}, out: "7-Zip (z) 24.09 (arm64)\nERROR: Can't allocate required memory!\n", ok: true, bench: SevenZip, noteOn: true},
		{name: "openssl without speed is not the benchmark", argv: []string{"openssl", "version"}, out: "OpenSSL 3.0.15 3 Sep 2024\n"},
		{name: "a Total line alone is not cpuminer", argv: []string{"du", "-ch"}, out: "Total: 12.5 kH/s\n"},
		{name: "sysbench banner without figures", argv: []string{"cat"}, out: "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, ok := Recognize(tc.argv, []byte(tc.out))
			if ok != tc.ok || f.Benchmark != tc.bench {
				t.Fatalf("Recognize = %+v, %v; want benchmark %q, %v", f, ok, tc.bench, tc.ok)
			}
			if f.HasResult() {
				t.Errorf("figures from nothing: %+v", f)
			}
			if tc.noteOn && len(f.Notes) == 0 {
				t.Error("no note saying the result is missing")
			}
		})
	}
}

// TestMalformedLinesIgnored checks that damaged result lines give no figure
// rather than a wrong one.
func TestMalformedLinesIgnored(t *testing.T) {
	cases := []struct {
		name string
		out  string
	}{
		{"stress-ng NaN", "stress-ng: info:  [1] stressor       bogo ops real time  usr time  sys time   bogo ops/s     bogo ops/s\nstress-ng: info:  [1] cpu  NaN  1.0 1.0 0.0 1.0 1.0\n"},
		{"stress-ng negative", "stress-ng: info:  [1] stressor       bogo ops real time  usr time  sys time   bogo ops/s     bogo ops/s\nstress-ng: info:  [1] cpu  10  -1.0 1.0 0.0 1.0 1.0\n"},
		{"HPL zero N", "WR11C2R4  0  128  1  4  71.93  2.5e+01\n"},
		{"HPL Inf Gflops", "WR11C2R4  100  128  1  4  71.93  Inf\n"},
		{"llama-bench without t/s column", "| model | test |\n| --- | --- |\n| x | pp512 |\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if f, ok := Recognize([]string{"x"}, []byte(tc.out)); ok {
				t.Errorf("recognised %+v", f)
			}
		})
	}
}

func TestCPUMinerUnitScale(t *testing.T) {
	for _, c := range []struct {
		prefix string
		want   float64
	}{{"", 0.001}, {"k", 1}} {
		if got := cpuminerUnitScale(c.prefix); got != c.want {
			t.Errorf("cpuminerUnitScale(%q) = %v, want %v", c.prefix, got, c.want)
		}
	}
}
