package compare

import (
	"maps"
	"slices"

	"boardbench/internal/result"
)

// workloadFigures are the workloads' headline figures (summary.workloads)
// side by side: zstd's MB/s and seconds, what the crypto extensions are
// worth per core type and cipher, llama-bench's tokens/s, tokens/s per W
// and the memory controller's clock, HPL's Gflops (per W) and each ssh
// cipher's MB/s. A figure no result has is left out.
func workloadFigures(in []Input) []Figure {
	n := len(in)
	var out []Figure
	add := func(key, name, core, unit string, of func(w *result.Workloads) *float64) {
		f := Figure{Key: key, Name: name, Core: core, Unit: unit, Values: make([]*float64, n), SpreadPct: make([]*float64, n)}
		for i, x := range in {
			if w := x.Result.Summary.Workloads; w != nil {
				f.Values[i] = of(w)
			}
		}
		if anyValue(f.Values) {
			out = append(out, f)
		}
	}
	zstd := func(get func(z *result.ZstdFigures) *float64) func(w *result.Workloads) *float64 {
		return func(w *result.Workloads) *float64 {
			if w.Zstd == nil {
				return nil
			}
			return get(w.Zstd)
		}
	}
	add("workloads.zstd.mb_s", "zstd -19, all CPUs", "", "MB/s", zstd(func(z *result.ZstdFigures) *float64 { return z.MBs }))
	add("workloads.zstd.seconds", "zstd -19 time (input: 32 MiB per CPU, 32-256 MiB)", "", "s", zstd(func(z *result.ZstdFigures) *float64 { return z.Seconds }))

	// armcap: rows by core type (else CPU) and cipher, in the order met.
	type key struct{ core, cipher string }
	var keys []key
	seen := map[key]bool{}
	for _, x := range in {
		if w := x.Result.Summary.Workloads; w != nil {
			for _, a := range w.Armcap {
				for _, r := range a.Ratios {
					k := key{armcapCore(x.Result, a), r.Cipher}
					if !seen[k] {
						seen[k] = true
						keys = append(keys, k)
					}
				}
			}
		}
	}
	for _, k := range keys {
		f := Figure{Key: "workloads.armcap.ratio/" + k.core + "/" + k.cipher, Name: "crypto extensions worth, " + k.cipher, Core: k.core,
			Unit: "x", Values: make([]*float64, n), SpreadPct: make([]*float64, n)}
		for i, x := range in {
			if w := x.Result.Summary.Workloads; w != nil {
				for _, a := range w.Armcap {
					for _, r := range a.Ratios {
						if armcapCore(x.Result, a) == k.core && r.Cipher == k.cipher && f.Values[i] == nil {
							f.Values[i] = r.Ratio
						}
					}
				}
			}
		}
		if anyValue(f.Values) {
			out = append(out, f)
		}
	}

	llama := func(get func(l *result.LlamaFigures) *float64) func(w *result.Workloads) *float64 {
		return func(w *result.Workloads) *float64 {
			if w.Llama == nil {
				return nil
			}
			return get(w.Llama)
		}
	}
	add("workloads.llama.pp_tokens_s", "llama-bench prompt processing (pp)", "", "tokens/s", llama(func(l *result.LlamaFigures) *float64 { return l.PPTokensS }))
	add("workloads.llama.tg_tokens_s", "llama-bench text generation (tg)", "", "tokens/s", llama(func(l *result.LlamaFigures) *float64 { return l.TGTokensS }))
	add("workloads.llama.pp_tokens_s_per_w", "llama-bench pp per W", "", "tokens/s/W", llama(func(l *result.LlamaFigures) *float64 { return l.PPTokensSPerW }))
	add("workloads.llama.tg_tokens_s_per_w", "llama-bench tg per W", "", "tokens/s/W", llama(func(l *result.LlamaFigures) *float64 { return l.TGTokensSPerW }))
	add("workloads.llama.mem_clock_mhz", "llama-bench memory clock", "", "MHz", llama(func(l *result.LlamaFigures) *float64 { return l.MemClockMHz }))

	hpl := func(get func(h *result.HPLHeadline) *float64) func(w *result.Workloads) *float64 {
		return func(w *result.Workloads) *float64 {
			if w.HPL == nil {
				return nil
			}
			return get(w.HPL)
		}
	}
	add("workloads.hpl.gflops", "HPL (Linpack)", "", "Gflops", hpl(func(h *result.HPLHeadline) *float64 { return h.Gflops }))
	add("workloads.hpl.gflops_per_w", "HPL (Linpack) per watt", "", "Gflops/W", hpl(func(h *result.HPLHeadline) *float64 { return h.GflopsPerW }))

	// ssh: one row per cipher, in the order of the cipher names.
	ciphers := map[string]bool{}
	for _, x := range in {
		if w := x.Result.Summary.Workloads; w != nil && w.SSH != nil {
			for c := range w.SSH.MBs {
				ciphers[c] = true
			}
		}
	}
	for _, c := range slices.Sorted(maps.Keys(ciphers)) {
		add("workloads.ssh.mb_s."+c, "ssh cipher "+c, "", "MB/s", func(w *result.Workloads) *float64 {
			if w.SSH == nil {
				return nil
			}
			return w.SSH.MBs[c]
		})
	}
	return out
}

// armcapCore labels an armcap entry's row: its core type's name when
// known, else its CPU (as the per-core-type figures do).
func armcapCore(r *result.Result, a result.ArmcapFigures) string {
	if len(a.CPUs) == 0 {
		return coreName(a.Core, -1)
	}
	v := result.Value{CPU: a.CPUs[0], Core: a.Core}
	return coreName(coreType(r, v), v.CPU)
}
