package cpu

import (
	"slices"
	"strings"
)

// FeatureSummary answers the questions users ask about instruction set
// extensions. Every flag is true when all CPUs that report features have it,
// false when at least one lacks it, and null when the flag does not apply to
// the architecture or the kernel lists no features.
type FeatureSummary struct {
	// Source names the /proc/cpuinfo line the features come from:
	// "Features" (ARM), "flags" (x86), "features" (LoongArch), "isa"
	// (RISC-V, MIPS); "" when there is none.
	Source string `json:"source"`
	// Common lists the features every CPU reports, sorted.
	Common []string `json:"common"`

	// NEON is Advanced SIMD ("neon" on 32-bit, "asimd" on 64-bit kernels).
	NEON *bool `json:"neon"`
	// AES, PMULL, SHA1 and SHA2 are the ARMv8 Cryptography Extensions.
	AES   *bool `json:"aes"`
	PMULL *bool `json:"pmull"`
	SHA1  *bool `json:"sha1"`
	SHA2  *bool `json:"sha2"`
	// CryptoExtensions is true when all four of aes, pmull, sha1, sha2 are
	// present.
	CryptoExtensions *bool `json:"crypto_extensions"`
	// CRC32 is the ARMv8 CRC32 instructions ("crc32").
	CRC32 *bool `json:"crc32"`
	// SVE and SVE2 are the Scalable Vector Extensions.
	SVE  *bool `json:"sve"`
	SVE2 *bool `json:"sve2"`

	// x86: AES-NI ("aes"), AVX, AVX2, AVX-512 Foundation ("avx512f") and
	// the SHA extensions ("sha_ni").
	AESNI   *bool `json:"aes_ni"`
	AVX     *bool `json:"avx"`
	AVX2    *bool `json:"avx2"`
	AVX512F *bool `json:"avx512f"`
	SHANI   *bool `json:"sha_ni"`

	// RVV is the RISC-V vector extension "v".
	RVV *bool `json:"rvv"`

	// LSX and LASX are LoongArch's 128- and 256-bit SIMD extensions.
	LSX  *bool `json:"lsx"`
	LASX *bool `json:"lasx"`
}

// ArmCryptoFeatures are the feature names of the ARMv8 Cryptography
// Extensions as Linux lists them.
var ArmCryptoFeatures = []string{"aes", "pmull", "sha1", "sha2"}

// featureSource returns the cpuinfo key that lists features on arch.
func featureSource(arch string) string {
	switch arch {
	case "arm", "arm64":
		return "Features"
	case "x86", "x86_64":
		return "flags"
	case "loongarch64":
		return "features"
	case "riscv64", "riscv32", "mips", "mips64":
		return "isa"
	}
	return ""
}

// cpuFeatures extracts the feature list of one CPU from its cpuinfo lines.
func cpuFeatures(arch string, get func(string) string) []string {
	switch arch {
	case "riscv64", "riscv32":
		return RISCVExtensions(get("isa"))
	case "mips", "mips64":
		return uniqueSorted(append(strings.Fields(get("isa")), strings.Fields(get("ASEs implemented"))...))
	case "loongarch64":
		// Kernels from 6.x print "Features", older ones "features".
		return uniqueSorted(strings.Fields(firstNonEmpty(get("features"), get("Features"))))
	}
	src := featureSource(arch)
	if src == "" {
		// Unknown architecture: take whichever list the kernel printed.
		for _, k := range []string{"Features", "flags", "features"} {
			if v := get(k); v != "" {
				return uniqueSorted(strings.Fields(v))
			}
		}
		return nil
	}
	return uniqueSorted(strings.Fields(get(src)))
}

// RISCVExtensions splits a RISC-V ISA string into extension names:
// "rv64imafdcv_zicbom_zba" → [a c d f i m v zba zicbom]. Version numbers of
// older kernels ("rv64i2p0m2p0") are dropped. The result is sorted.
func RISCVExtensions(isa string) []string {
	isa = strings.ToLower(strings.TrimSpace(isa))
	if !strings.HasPrefix(isa, "rv") {
		return nil
	}
	parts := strings.Split(isa, "_")
	base := strings.TrimLeft(strings.TrimPrefix(parts[0], "rv"), "0123456789")
	var out []string
	for i := 0; i < len(base); i++ {
		c := base[i]
		if c < 'a' || c > 'z' {
			continue
		}
		if c == 'p' && i > 0 && base[i-1] >= '0' && base[i-1] <= '9' {
			continue // version separator as in "2p0"
		}
		if c == 'x' || c == 'z' {
			// Multi-letter extension glued to the base (very old kernels).
			out = append(out, trimVersion(base[i:]))
			break
		}
		out = append(out, string(c))
	}
	for _, p := range parts[1:] {
		if p = trimVersion(p); p != "" {
			out = append(out, p)
		}
	}
	return uniqueSorted(out)
}

// trimVersion drops a trailing version ("zicsr2p0" → "zicsr").
func trimVersion(s string) string {
	end := len(s)
	for end > 0 && (s[end-1] >= '0' && s[end-1] <= '9' || s[end-1] == 'p' || s[end-1] == '-' || s[end-1] == '.') {
		end--
	}
	if end == 0 {
		return ""
	}
	return s[:end]
}

func uniqueSorted(in []string) []string {
	if len(in) == 0 {
		return nil
	}
	out := slices.DeleteFunc(slices.Clone(in), func(s string) bool { return s == "" })
	slices.Sort(out)
	return slices.Compact(out)
}

// intersect returns the features present in every list (lists that are nil
// are skipped: the CPU reports nothing).
func intersect(lists [][]string) []string {
	var out []string
	first := true
	for _, l := range lists {
		if l == nil {
			continue
		}
		if first {
			out = slices.Clone(l)
			first = false
			continue
		}
		have := map[string]bool{}
		for _, f := range l {
			have[f] = true
		}
		out = slices.DeleteFunc(out, func(f string) bool { return !have[f] })
	}
	if out == nil && !first {
		out = []string{}
	}
	return out
}

// summarizeFeatures builds the summary from the per-CPU feature lists.
func summarizeFeatures(arch string, lists [][]string) FeatureSummary {
	common := intersect(lists)
	s := FeatureSummary{Common: common}
	if common == nil {
		return s
	}
	s.Source = featureSource(arch)
	has := map[string]bool{}
	for _, f := range common {
		has[f] = true
	}
	flag := func(names ...string) *bool {
		v := false
		for _, n := range names {
			v = v || has[n]
		}
		return &v
	}
	switch arch {
	case "arm", "arm64":
		s.NEON = flag("asimd", "neon")
		s.AES, s.PMULL, s.SHA1, s.SHA2 = flag("aes"), flag("pmull"), flag("sha1"), flag("sha2")
		all := has["aes"] && has["pmull"] && has["sha1"] && has["sha2"]
		s.CryptoExtensions = &all
		s.CRC32 = flag("crc32")
		s.SVE, s.SVE2 = flag("sve"), flag("sve2")
	case "x86", "x86_64":
		s.AESNI, s.AVX, s.AVX2, s.AVX512F, s.SHANI = flag("aes"), flag("avx"), flag("avx2"), flag("avx512f"), flag("sha_ni")
	case "riscv64", "riscv32":
		s.RVV = flag("v")
	case "loongarch64":
		s.LSX, s.LASX = flag("lsx"), flag("lasx")
	}
	return s
}
