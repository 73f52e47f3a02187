package runtext

import (
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
