package runtext

import (
	"fmt"
	"strings"

	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// WorkloadPairs are the summary lines of the workloads (`run --workloads`)
// from summary.workloads: zstd's MB/s and seconds, what the crypto
// extensions are worth per cipher and core type, llama-bench's pp and tg
// tokens/s with tokens/s per W and the memory controller's clock. None
// without workload figures.
func WorkloadPairs(w *result.Workloads) [][2]string {
	if w.Empty() {
		return nil
	}
	var pairs [][2]string
	if z := w.Zstd; z != nil {
		pairs = append(pairs, [2]string{"zstd", ZstdLine(z)})
	}
	for _, a := range w.Armcap {
		pairs = append(pairs, [2]string{"crypto ext. " + cpusLabel(a.CPUs, a.Core), ArmcapLine(a)})
	}
	if l := w.Llama; l != nil {
		pairs = append(pairs, [2]string{"llama-bench", LlamaLine(l)}, [2]string{"llama-bench per W", LlamaPerWLine(l)},
			[2]string{"llama-bench memory", "clock " + unit(l.MemClockMHz, "%.0f MHz") + " (mean of the phase's samples)"})
	}
	return pairs
}

// ZstdLine is zstd's headline: "6.970 MB/s, 38.5 s (-19 -T8, 256 MiB,
// ratio 2.83)".
func ZstdLine(z *result.ZstdFigures) string {
	return fmt.Sprintf("%s, %s (-%d -T%d, %s, ratio %s)", unit(z.MBs, "%.3f MB/s"), unit(z.Seconds, "%.1f s"),
		z.Level, z.Threads, mibText(z.InputBytes), unit(z.Ratio, "%.2f"))
}

// ArmcapLine is each cipher's speed-up from the crypto extensions:
// "aes-256-cbc 4.10x (1203 / 293 MB/s)".
func ArmcapLine(a result.ArmcapFigures) string {
	var parts []string
	for _, r := range a.Ratios {
		parts = append(parts, fmt.Sprintf("%s %s (%s with / %s without)", r.Cipher, unit(r.Ratio, "%.2fx"), kbsAsMBs(r.WithKBs), kbsAsMBs(r.WithoutKBs)))
	}
	if len(parts) == 0 {
		return "unknown (no cipher measured both ways)"
	}
	return strings.Join(parts, "; ")
}

// LlamaLine is llama-bench's headline: pp and tg tokens/s and the model.
func LlamaLine(l *result.LlamaFigures) string {
	return fmt.Sprintf("pp %s, tg %s (%s)", unit(l.PPTokensS, "%.2f"), unit(l.TGTokensS, "%.2f tokens/s"), orUnknownText(l.ModelType))
}

// LlamaPerWLine is pp and tg in tokens/s per W (tokens per joule).
func LlamaPerWLine(l *result.LlamaFigures) string {
	if l.PowerW == nil {
		return "unknown (no power source)"
	}
	return fmt.Sprintf("pp %s, tg %s at %.2f W", unit(l.PPTokensSPerW, "%.3f"), unit(l.TGTokensSPerW, "%.3f tokens/s/W"), *l.PowerW)
}

// renderZstd writes the zstd phase's figures.
func renderZstd(w *textfmt.Writer, f result.ZstdFigures) {
	fmt.Fprintln(w.W)
	w.Line("zstd %s -%d -T%d on %s: %s of %s (the same bytes on every machine)", orUnknownText(f.Version), f.Level, f.Threads,
		cpusLabel(f.CPUs, ""), mibText(f.InputBytes), f.Input)
	out := "unknown"
	if f.OutputBytes != nil {
		out = fmt.Sprintf("%d bytes", *f.OutputBytes)
	}
	w.KV([2]string{"time", unit(f.Seconds, "%.2f s")}, [2]string{"speed", unit(f.MBs, "%.3f MB/s") + " of input (MB = 10^6 bytes)"},
		[2]string{"compressed", out + ", ratio " + unit(f.Ratio, "%.3f")})
	if f.Error != "" {
		w.Line("error: %s", f.Error)
	}
}

// renderArmcap writes the armcap phase: each cipher with and without the
// crypto extensions.
func renderArmcap(w *textfmt.Writer, f result.ArmcapFigures) {
	fmt.Fprintln(w.W)
	w.Line("openssl %s on %s, with and without the crypto extensions", orUnknownText(f.Version), cpusLabel(f.CPUs, f.Core))
	w.Line("without: %s turns off %s", f.Variable, f.Disables)
	if f.CPUInfoWithout != "" {
		w.Line("openssl's capabilities: %s; with the variable: %s", orUnknownText(f.CPUInfo), f.CPUInfoWithout)
	}
	t := textfmt.NewTable("cipher", "block", "with", "without", "worth")
	t.RightAlign[1], t.RightAlign[2], t.RightAlign[3], t.RightAlign[4] = true, true, true, true
	for _, r := range f.Ratios {
		t.Row(r.Cipher, fmt.Sprintf("%d B", r.BlockBytes), kbsAsMBs(r.WithKBs), kbsAsMBs(r.WithoutKBs), unit(r.Ratio, "%.2fx"))
	}
	if len(f.Ratios) > 0 {
		w.Table(t)
	} else {
		w.Line("ciphers: none measured both ways")
	}
	w.Line("MB/s = 10^6 bytes per second; worth = with / without")
	for _, c := range append(append([]result.OpenSSLCipher{}, f.With...), f.Without...) {
		if c.Error != "" {
			w.Line("%s: %s", c.Cipher, c.Error)
		}
	}
}

// renderLlama writes the llama phase's tests.
func renderLlama(w *textfmt.Writer, f result.LlamaFigures) {
	fmt.Fprintln(w.W)
	threads := "unknown"
	if f.Threads != nil {
		threads = fmt.Sprint(*f.Threads)
	}
	w.Line("llama-bench %s on %s: %s (%s), backends %s, %s threads", orUnknownText(f.Version), cpusLabel(f.CPUs, ""),
		orUnknownText(f.Model), orUnknownText(f.ModelType), orUnknownText(f.Backends), threads)
	t := textfmt.NewTable("test", "tokens/s", "±")
	t.RightAlign[1], t.RightAlign[2] = true, true
	for _, x := range f.Tests {
		v := x.TokensS
		t.Row(x.Name, fmt.Sprintf("%.2f", v), unit(x.StddevTS, "%.2f"))
	}
	if len(f.Tests) > 0 {
		w.Table(t)
	} else {
		w.Line("tests: none measured")
	}
	if f.Error != "" {
		w.Line("error: %s", f.Error)
	}
}

// unit formats a value, "unknown" when nil.
func unit(v *float64, format string) string {
	if v == nil {
		return "unknown"
	}
	return fmt.Sprintf(format, *v)
}

// kbsAsMBs converts openssl's kB/s (1000 bytes) to MB/s.
func kbsAsMBs(v *float64) string {
	if v == nil {
		return "unknown"
	}
	return fmt.Sprintf("%.1f MB/s", *v/1000)
}

func mibText(b int64) string { return fmt.Sprintf("%g MiB", float64(b)/(1<<20)) }

func orUnknownText(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
