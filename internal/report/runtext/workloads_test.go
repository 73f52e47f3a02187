package runtext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// withWorkloads is a complete RK3588 run with the three workload phases:
// zstd, armcap on one core type, llama-bench with a power source and the
// memory controller's clock in the samples.
func withWorkloads() *result.Result {
	r := completeRK3588()
	z := phaseAt(result.PhaseZstd, "zstd -19 -T8 on cpu0-7, 256 MiB of generated input", []int{0, 1, 2, 3, 4, 5, 6, 7}, 400, 38.5)
	out := int64(95_000_000)
	mustFigures(&z, result.ZstdFigures{CPUs: z.CPUs, Version: "1.5.4", Level: 19, Threads: 8, Input: "boardbench-mix-1", InputBytes: 256 << 20,
		OutputBytes: &out, Ratio: f64(2.826), Seconds: f64(38.512), MBs: f64(6.97)})
	a := phaseAt(result.PhaseArmcap, "openssl speed with and without the crypto extensions on cpu4 (Cortex-A76)", []int{4}, 440, 24)
	mustFigures(&a, result.ArmcapFigures{CPUs: []int{4}, Core: "Cortex-A76", Version: "3.0.17", Variable: "OPENSSL_armcap=0",
		Disables: "every ARM extension openssl uses", SecondsPerBlockSize: 1,
		Ratios: []result.ArmcapRatio{{Cipher: "aes-256-gcm", BlockBytes: 16384, WithKBs: f64(1612000), WithoutKBs: f64(98000), Ratio: f64(16.45)}}})
	l := phaseAt(result.PhaseLlama, "llama-bench on q.gguf, 8 threads on cpu0-7", []int{0, 1, 2, 3, 4, 5, 6, 7}, 470, 60)
	mustFigures(&l, result.LlamaFigures{CPUs: l.CPUs, Version: "build 6920 (5a32f10a)", Model: "q.gguf", ModelType: "qwen2 0.5B Q4_0",
		Backends: "CPU", Threads: iptr(8), Tests: []result.LlamaTest{{Name: "pp512", NPrompt: 512, TokensS: 221.285, StddevTS: f64(2.061)},
			{Name: "tg128", NGen: 128, TokensS: 26.501}}, PPTokensS: f64(221.285), TGTokensS: f64(26.501)})
	l.PowerW = f64(8.5)
	for i := 0; i < 3; i++ {
		s := sample(470+float64(i), nil, 8, 99, 1, 98, 60)
		s.MemClockMHz = f64(2112)
		l.Samples = append(l.Samples, s)
	}
	r.Phases = append(r.Phases, z, a, l)
	r.Summary.Workloads = result.BuildSummary(r.Phases).Workloads
	return r
}

func TestRenderWorkloads(t *testing.T) {
	out := render(withWorkloads(), false)
	for _, want := range []string{
		// summary
		"6.970 MB/s, 38.5 s (-19 -T8, 256 MiB, ratio 2.83)",
		"aes-256-gcm 16.45x (1612.0 MB/s with / 98.0 MB/s without)",
		"pp 221.28, tg 26.50 tokens/s (qwen2 0.5B Q4_0)", "pp 26.034, tg 3.118 tokens/s/W at 8.50 W", "clock 2112 MHz (mean of the phase's samples)",
		// phases
		"zstd 1.5.4 -19 -T8 on cpu0-7: 256 MiB of boardbench-mix-1",
		"without: OPENSSL_armcap=0 turns off every ARM extension openssl uses",
		"llama-bench build 6920 (5a32f10a) on cpu0-7: q.gguf (qwen2 0.5B Q4_0), backends CPU, 8 threads",
		"pp512", "221.28", "tg128",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	for i, l := range strings.Split(out, "\n") {
		if n := len([]rune(l)); n > textfmt.MaxWidth && (strings.Contains(l, "zstd") || strings.Contains(l, "llama") || strings.Contains(l, "crypto")) {
			t.Errorf("line %d is %d columns: %q", i+1, n, l)
		}
	}
}

// TestRenderWorkloadsUnknown: without a power source or a memory clock the
// report says unknown, never a number.
func TestRenderWorkloadsUnknown(t *testing.T) {
	l := &result.LlamaFigures{PPTokensS: f64(10), ModelType: "m"}
	got := strings.Join([]string{LlamaLine(l), LlamaPerWLine(l)}, "\n")
	for _, want := range []string{"pp 10.00, tg unknown (m)", "unknown (no power source)"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q lacks %q", got, want)
		}
	}
	pairs := WorkloadPairs(&result.Workloads{Llama: l})
	if len(pairs) != 3 || pairs[2][1] != "clock unknown (mean of the phase's samples)" {
		t.Errorf("pairs %q", pairs)
	}
	if WorkloadPairs(nil) != nil || WorkloadPairs(&result.Workloads{}) != nil {
		t.Error("pairs without workloads")
	}
}

func fptr(v float64) *float64 { return &v }

func TestRenderWorkloadPhases(t *testing.T) {
	res := 2145.627104
	hpl, _ := json.Marshal(result.HPLFigures{Tool: "hpcc", Version: "1.5.0f", HPLVersion: "2.0", Processes: 4, N: 10752, NB: 128, P: 2, Q: 2,
		Gflops: fptr(12.5), ResidualFailed: true, BLAS: "/usr/lib/aarch64-linux-gnu/openblas-pthread/libblas.so.3",
		Runs: []result.HPLRun{{Variant: "WR11C2R4", N: 10752, NB: 128, P: 2, Q: 2, TimeS: 66.2, Gflops: 12.5, Residual: &res, Check: "FAILED"}}})
	ssh, _ := json.Marshal(result.SSHFigures{Version: "9.2p1", Bytes: 1 << 30, Unsupported: []string{"aes256-ctr"},
		Ciphers: []result.SSHCipher{{Cipher: "chacha20-poly1305@openssh.com", MBs: fptr(51.9), DurationS: fptr(20.7)}, {Cipher: "aes128-ctr", Error: "exit status 255"}}})
	tests := []struct {
		name  string
		phase result.Phase
		want  []string
	}{
		{"hpl with power", result.Phase{Name: result.PhaseHPL, Figures: hpl, Evidence: result.Evidence{PowerW: fptr(5)}},
			[]string{"HPL through hpcc 1.5.0f (HPLinpack 2.0), 4 process(es) in a 2×2 grid, N=10752 NB=128", "openblas-pthread",
				"WR11C2R4  10752  128  2×2  66.20 s    12.5      2146  FAILED", "residual check FAILED", "Gflops: 12.5", "2.5 Gflops/W at 5.00 W"}},
		{"hpl without power", result.Phase{Name: result.PhaseHPL, Figures: hpl}, []string{"Gflops/W unknown (no power source)"}},
		{"ssh", result.Phase{Name: result.PhaseSSHCiphers, Figures: ssh},
			[]string{"ssh 9.2p1 to a throwaway sshd on 127.0.0.1: 1073.7 MB (1024 MiB) per cipher", "chacha20-poly1305@openssh.com   51.9 MB/s  20.70 s",
				"aes128-ctr                              -        -", "aes128-ctr: exit status 255", "not offered by this ssh: aes256-ctr"}},
	}
	for _, tt := range tests {
		var b bytes.Buffer
		renderFigures(textfmt.New(&b, false), tt.phase, "")
		for _, want := range tt.want {
			if !strings.Contains(b.String(), want) {
				t.Errorf("%s: lacks %q:\n%s", tt.name, want, b.String())
			}
		}
	}
}

func TestWorkloadPairs(t *testing.T) {
	tests := []struct {
		name string
		s    result.Summary
		want string
	}{
		{"none", result.Summary{}, ""},
		{"figures", result.Summary{Workloads: &result.Workloads{HPL: &result.HPLHeadline{Gflops: fptr(16.3), GflopsPerW: fptr(2.04)},
			SSH: &result.SSHHeadline{MBs: map[string]*float64{"chacha20-poly1305@openssh.com": fptr(51.9), "aes128-ctr": nil}}}},
			"HPL=16.3 Gflops, 2.04 Gflops/W|ssh ciphers=aes128-ctr failed, chacha20-poly1305@openssh.com 51.9 MB/s"},
		{"hpl without power", result.Summary{Workloads: &result.Workloads{HPL: &result.HPLHeadline{Gflops: fptr(0.36)}}}, "HPL=0.36 Gflops"},
	}
	for _, tt := range tests {
		var got []string
		for _, p := range WorkloadPairs(tt.s.Workloads) {
			got = append(got, p[0]+"="+p[1])
		}
		if g := strings.Join(got, "|"); g != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, g, tt.want)
		}
	}
}
