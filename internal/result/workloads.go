package result

import (
	"encoding/json"
	"math"
)

// Phase names of the opt-in workload phases of `boardbench run
// --workloads LIST` (schema 1.3). Each workload's phase holds the figures
// its tool gave (the types below); Summary.Workloads repeats them by
// workload name, with what only the phase's evidence gives (tokens/s per
// W, the memory controller's clock), for the last phase of each workload
// (armcap: every phase, one per core type) that measured something and
// was not disturbed.
const (
	// PhaseZstd is `zstd -q -19 -T<n>` on boardbench's own generated input
	// (ZstdFigures).
	PhaseZstd = "zstd"
	// PhaseArmcap is openssl speed with and without the CPU's crypto
	// extensions (OPENSSL_armcap=0 on arm, OPENSSL_ia32cap on x86;
	// ArmcapFigures).
	PhaseArmcap = "armcap"
	// PhaseLlama is llama-bench on the user's model file (LlamaFigures).
	PhaseLlama = "llama"
)

// Workloads are the figures of the workload phases by workload name; a
// workload that was not asked for, was skipped or measured nothing has no
// entry (its phase says why).
type Workloads struct {
	Zstd *ZstdFigures `json:"zstd,omitempty"`
	// Armcap has one entry per core type measured.
	Armcap []ArmcapFigures `json:"armcap,omitempty"`
	Llama  *LlamaFigures   `json:"llama,omitempty"`
}

// Empty reports whether no workload has figures.
func (w *Workloads) Empty() bool {
	return w == nil || (w.Zstd == nil && len(w.Armcap) == 0 && w.Llama == nil)
}

// ZstdFigures are the figures of the zstd phase: the time zstd took to
// compress boardbench's generated input at a high level with one thread
// per CPU, and the throughput that gives.
type ZstdFigures struct {
	CPUs []int `json:"cpus"`
	// Version is zstd's version ("1.5.4"); VersionLine its banner.
	Version     string `json:"version"`
	VersionLine string `json:"version_line"`
	// Level is the compression level (-19) and Threads the -T value.
	Level   int `json:"level"`
	Threads int `json:"threads"`
	// Input names the generated input and its version ("boardbench-mix-1":
	// the same bytes on every machine); InputBytes is its size in bytes.
	Input      string `json:"input"`
	InputBytes int64  `json:"input_bytes"`
	// OutputBytes is the compressed size; nil when not measured.
	OutputBytes *int64 `json:"output_bytes"`
	// Ratio is InputBytes / OutputBytes; nil when not measured.
	Ratio *float64 `json:"ratio"`
	// Seconds is zstd's wall time (start to exit) and MBs the input
	// compressed per second in MB/s (10^6 bytes); nil when not measured.
	Seconds *float64 `json:"seconds"`
	MBs     *float64 `json:"mb_s"`
	// Error says why there are no figures.
	Error string `json:"error,omitempty"`
}

// ArmcapFigures are the figures of the armcap phase: the same openssl
// speed figures measured back to back on one CPU, first as openssl
// chooses its code (the CPU's crypto extensions in use) and then with them
// disabled through openssl's capability variable.
type ArmcapFigures struct {
	CPUs []int `json:"cpus"`
	// Core is the core type of the CPU ("" when unknown).
	Core    string `json:"core"`
	Version string `json:"version"`
	// Variable is the environment setting of the second run, e.g.
	// "OPENSSL_armcap=0" or "OPENSSL_ia32cap=~0x200000200000000:~0x60020000000";
	// Disables says in words what it turns off.
	Variable string `json:"variable"`
	Disables string `json:"disables"`
	// CPUInfo and CPUInfoWithout are the capability vector `openssl
	// version -a` reports without and with the variable set
	// ("OPENSSL_ia32cap=0xfffa32034f8bffff:0x1b415fdef1bf27eb"): the proof
	// that the setting took; "" when openssl does not print one (before
	// OpenSSL 3, LibreSSL).
	CPUInfo        string `json:"cpuinfo"`
	CPUInfoWithout string `json:"cpuinfo_without"`
	// SecondsPerBlockSize is the -seconds value of both runs.
	SecondsPerBlockSize int `json:"seconds_per_block_size"`
	// With and Without are openssl's figures with the extensions and
	// without them (kB/s, 1 kB = 1000 bytes, per block size).
	With    []OpenSSLCipher `json:"with"`
	Without []OpenSSLCipher `json:"without"`
	// Ratios are With / Without at 16384-byte blocks (8192 when 16384 was
	// not measured), one per cipher: what the extensions are worth.
	Ratios []ArmcapRatio `json:"ratios"`
}

// ArmcapRatio is one cipher's speed-up from the crypto extensions.
type ArmcapRatio struct {
	Cipher     string `json:"cipher"`
	BlockBytes int    `json:"block_bytes"`
	// WithKBs and WithoutKBs are the two figures (kB/s); Ratio is
	// WithKBs / WithoutKBs. Each is nil when not measured.
	WithKBs    *float64 `json:"with_kb_s"`
	WithoutKBs *float64 `json:"without_kb_s"`
	Ratio      *float64 `json:"ratio"`
}

// LlamaFigures are the figures of the llama phase: llama-bench's prompt
// processing (pp) and text generation (tg) throughput on the user's model.
type LlamaFigures struct {
	CPUs []int `json:"cpus"`
	// Version is llama.cpp's build ("build 5163 (8cf427ff)"), "" when
	// llama-bench did not say.
	Version string `json:"version"`
	// Model is the model file given (--model); ModelType, ModelBytes and
	// ModelParams are what llama-bench read from it.
	Model       string `json:"model"`
	ModelType   string `json:"model_type"`
	ModelBytes  *int64 `json:"model_bytes"`
	ModelParams *int64 `json:"model_params"`
	// Backends is llama-bench's backend list ("CPU", "BLAS"...), Threads
	// its thread count.
	Backends string `json:"backends"`
	Threads  *int   `json:"threads"`
	// Tests are llama-bench's tests in order (pp512, tg128).
	Tests []LlamaTest `json:"tests"`
	// PPTokensS and TGTokensS are the prompt-processing and
	// text-generation throughputs in tokens per second (the first pp and
	// tg test); nil when not measured.
	PPTokensS *float64 `json:"pp_tokens_s"`
	TGTokensS *float64 `json:"tg_tokens_s"`
	// PPTokensSPerW and TGTokensSPerW divide them by the mean power of the
	// phase (tokens/s per W = tokens per joule); nil without a power
	// source.
	PPTokensSPerW *float64 `json:"pp_tokens_s_per_w"`
	TGTokensSPerW *float64 `json:"tg_tokens_s_per_w"`
	// PowerW is the mean power of the phase the ratios use (W); nil
	// without a power source.
	PowerW *float64 `json:"power_w"`
	// MemClockMHz is the memory controller's (DMC) mean clock during the
	// phase from the monitor's samples; nil when the machine exposes none.
	MemClockMHz *float64 `json:"mem_clock_mhz"`
	// Error says why there are no figures.
	Error string `json:"error,omitempty"`
}

// LlamaTest is one llama-bench test.
type LlamaTest struct {
	// Name is "pp512", "tg128"... from n_prompt and n_gen.
	Name    string `json:"name"`
	NPrompt int    `json:"n_prompt"`
	NGen    int    `json:"n_gen"`
	// NDepth is the prefilled context (0: none).
	NDepth   int      `json:"n_depth,omitempty"`
	TokensS  float64  `json:"tokens_s"`
	StddevTS *float64 `json:"tokens_s_stddev"`
}

// buildWorkloads collects the workloads' headline figures from their
// phases. A disturbed phase's figures stay in the phase only: the
// workloads are extras, so the check rules make that a warning
// (check.DisturbedFigures), and the standard figures stay valid.
func buildWorkloads(phases []Phase) *Workloads {
	w := &Workloads{}
	for _, p := range phases {
		if len(p.Figures) == 0 {
			continue
		}
		disturbed := p.IsDisturbed()
		switch p.Name {
		case PhaseZstd:
			var f ZstdFigures
			if json.Unmarshal(p.Figures, &f) != nil || f.MBs == nil {
				continue
			}
			if disturbed {
				continue
			}
			w.Zstd = &f
		case PhaseArmcap:
			var f ArmcapFigures
			if json.Unmarshal(p.Figures, &f) != nil || len(f.Ratios) == 0 {
				continue
			}
			if disturbed {
				continue
			}
			w.Armcap = append(w.Armcap, f)
		case PhaseLlama:
			var f LlamaFigures
			if json.Unmarshal(p.Figures, &f) != nil || (f.PPTokensS == nil && f.TGTokensS == nil) {
				continue
			}
			if disturbed {
				continue
			}
			f.PowerW, f.PPTokensSPerW, f.TGTokensSPerW = nil, nil, nil
			if pw := p.PowerW; pw != nil && *pw > 0 {
				f.PowerW = round3(*pw)
				f.PPTokensSPerW = perW(f.PPTokensS, *pw)
				f.TGTokensSPerW = perW(f.TGTokensS, *pw)
			}
			f.MemClockMHz = MeanMemClockMHz(p.Samples)
			w.Llama = &f
		}
	}
	if w.Empty() {
		return nil
	}
	return w
}

// MeanMemClockMHz is the mean of the samples' memory-controller clocks,
// nil when no sample has one.
func MeanMemClockMHz(samples []Sample) *float64 {
	var sum float64
	n := 0
	for _, s := range samples {
		if s.MemClockMHz != nil {
			sum += *s.MemClockMHz
			n++
		}
	}
	if n == 0 {
		return nil
	}
	v := math.Round(sum/float64(n)*10) / 10
	return &v
}

func perW(v *float64, w float64) *float64 {
	if v == nil {
		return nil
	}
	return round3(*v / w)
}

func round3(v float64) *float64 {
	r := math.Round(v*1000) / 1000
	return &r
}
