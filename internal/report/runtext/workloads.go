package runtext

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// renderHPL writes HPL's runs with their residual checks, the parameters
// and, where the phase has a mean power, Gflops per watt.
func renderHPL(w *textfmt.Writer, f result.HPLFigures, powerW *float64) {
	fmt.Fprintln(w.W)
	w.Line("HPL through %s %s (HPLinpack %s), %d process(es) in a %d×%d grid, N=%d NB=%d",
		orDash(f.Tool), orNA(f.Version, "version unknown"), orNA(f.HPLVersion, "unknown"), f.Processes, f.P, f.Q, f.N, f.NB)
	if f.MemAvailableBytes != nil {
		w.Line("N sized from MemAvailable %.0f MB: the matrix takes %.0f MB", float64(*f.MemAvailableBytes)/1e6, 8*float64(f.N)*float64(f.N)/1e6)
	}
	w.Line("BLAS: %s", orNA(f.BLAS, "unknown"))
	t := textfmt.NewTable("variant", "N", "NB", "P×Q", "time", "Gflops", "residual", "check")
	for i := 1; i <= 6; i++ {
		t.RightAlign[i] = true
	}
	for _, r := range f.Runs {
		res := "-"
		if r.Residual != nil {
			res = fmt.Sprintf("%.4g", *r.Residual)
		}
		t.Row(r.Variant, fmt.Sprint(r.N), fmt.Sprint(r.NB), fmt.Sprintf("%d×%d", r.P, r.Q), fmt.Sprintf("%.2f s", r.TimeS),
			fmt.Sprintf("%.4g", r.Gflops), res, orDash(r.Check))
	}
	if len(f.Runs) > 0 {
		w.Table(t)
	} else {
		w.Line("runs: none finished")
	}
	if f.ResidualFailed {
		w.Line("residual check FAILED: the machine computed wrong results (finding hpl_residual_failed)")
	}
	if f.Gflops != nil {
		line := fmt.Sprintf("Gflops: %.4g (10^9 floating-point operations per second)", *f.Gflops)
		if powerW != nil && *powerW > 0 {
			line += fmt.Sprintf(", %.3g Gflops/W at %.2f W", *f.Gflops / *powerW, *powerW)
		} else {
			line += ", Gflops/W unknown (no power source)"
		}
		w.Line("%s", line)
	}
	for _, n := range f.Notes {
		w.Line("note: %s", n)
	}
}

// renderSSH writes each cipher's throughput.
func renderSSH(w *textfmt.Writer, f result.SSHFigures) {
	fmt.Fprintln(w.W)
	w.Line("ssh %s to a throwaway sshd on 127.0.0.1: %.1f MB (%.0f MiB) per cipher to cat > /dev/null",
		orNA(f.Version, "version unknown"), float64(f.Bytes)/1e6, float64(f.Bytes)/(1<<20))
	t := textfmt.NewTable("cipher", "throughput", "time")
	t.RightAlign[1], t.RightAlign[2] = true, true
	secs := func(v *float64) string {
		if v == nil {
			return "-"
		}
		return fmt.Sprintf("%.2f s", *v)
	}
	var errs []string
	for _, c := range f.Ciphers {
		mbs := "-"
		if c.MBs != nil {
			mbs = fmt.Sprintf("%.1f MB/s", *c.MBs)
		}
		t.Row(c.Cipher, mbs, secs(c.DurationS))
		if c.Error != "" {
			errs = append(errs, c.Cipher+": "+c.Error)
		}
	}
	if len(f.Ciphers) > 0 {
		w.Table(t)
	} else {
		w.Line("ciphers: none measured")
	}
	w.Line("MB/s = 10^6 bytes per second over the whole ssh process (connection included, as in dd | ssh)")
	if len(f.Unsupported) > 0 {
		w.Line("not offered by this ssh: %s", strings.Join(f.Unsupported, ", "))
	}
	for _, e := range errs {
		w.Line("%s", e)
	}
	for _, n := range f.Notes {
		w.Line("note: %s", n)
	}
}

// HPLLine is HPL's headline: "12.5 Gflops, 2.5 Gflops/W".
func HPLLine(h *result.HPLHeadline) string {
	line := unit(h.Gflops, "%.4g Gflops")
	if h.GflopsPerW != nil {
		line += fmt.Sprintf(", %.3g Gflops/W", *h.GflopsPerW)
	}
	return line
}

// SSHLine is each cipher's throughput in the cipher names' order:
// "aes128-ctr failed, chacha20-poly1305@openssh.com 51.9 MB/s".
func SSHLine(s *result.SSHHeadline) string {
	var parts []string
	for _, c := range slices.Sorted(maps.Keys(s.MBs)) {
		v := "failed"
		if s.MBs[c] != nil {
			v = fmt.Sprintf("%.1f MB/s", *s.MBs[c])
		}
		parts = append(parts, c+" "+v)
	}
	return strings.Join(parts, ", ")
}

// WorkloadPairs are the summary lines of the workloads (`run --workloads`)
// from summary.workloads: zstd's MB/s and seconds, what the crypto
// extensions are worth per cipher and core type, llama-bench's pp and tg
// tokens/s with tokens/s per W and the memory controller's clock, HPL's
// Gflops (per W) and each ssh cipher's MB/s. None without workload
// figures (a disturbed workload has none: its phase and the warning say
// why).
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
	if h := w.HPL; h != nil && h.Gflops != nil {
		pairs = append(pairs, [2]string{"HPL", HPLLine(h)})
	}
	if s := w.SSH; s != nil && len(s.MBs) > 0 {
		pairs = append(pairs, [2]string{"ssh ciphers", SSHLine(s)})
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
