package cpu

import (
	"slices"
	"strings"

	"boardbench/internal/kernelfile"
)

// ArchFromMachine maps the kernel's machine name (uname -m) to boardbench's
// architecture family: "arm64", "arm", "riscv64", "riscv32", "x86_64",
// "x86", "loongarch64", "mips64", "mips". Other machines are returned as
// written (e.g. "ppc64le"); "" stays "".
func ArchFromMachine(machine string) string {
	m := strings.ToLower(strings.TrimSpace(machine))
	switch {
	case m == "":
		return ""
	case m == "aarch64" || m == "arm64" || m == "aarch64_be":
		return "arm64"
	case strings.HasPrefix(m, "arm"):
		return "arm"
	case m == "riscv64":
		return "riscv64"
	case m == "riscv32":
		return "riscv32"
	case m == "x86_64" || m == "amd64":
		return "x86_64"
	case m == "x86" || len(m) == 4 && m[0] == 'i' && strings.HasSuffix(m, "86"):
		return "x86"
	case strings.HasPrefix(m, "loongarch64"):
		return "loongarch64"
	case strings.HasPrefix(m, "mips64"):
		return "mips64"
	case strings.HasPrefix(m, "mips"):
		return "mips"
	}
	return m
}

// armv7Features are feature names only 32-bit ARM kernels print.
var armv7Features = []string{"half", "thumb", "fastmult", "vfp", "edsp", "swp", "vfpv3", "vfpv4"}

// ArchFromCPUInfo guesses the architecture family from the content of
// /proc/cpuinfo alone, for roots without a recorded uname: MIDR lines mean
// ARM ("CPU architecture: 8" with 64-bit features means arm64), an "isa"
// line starting with rv64/rv32 means RISC-V, LoongArch and MIPS name their
// ISA, x86 prints vendor_id and flags. It returns "" when nothing fits.
func ArchFromCPUInfo(f *kernelfile.CPUInfo) string {
	get := func(k string) string {
		if len(f.Entries) > 0 {
			return f.Get(&f.Entries[0], k)
		}
		return f.Global[k]
	}
	if get("CPU implementer") != "" || get("CPU part") != "" || get("CPU architecture") != "" {
		archLine := get("CPU architecture")
		feats := strings.Fields(get("Features"))
		model := get("model name") + " " + get("Processor")
		if strings.Contains(model, "AArch64") || strings.Contains(model, "aarch64") {
			return "arm64"
		}
		if strings.TrimSpace(archLine) == "8" || strings.EqualFold(strings.TrimSpace(archLine), "AArch64") {
			if slices.ContainsFunc(feats, func(f string) bool { return slices.Contains(armv7Features, f) }) {
				return "arm"
			}
			return "arm64"
		}
		return "arm"
	}
	// LoongArch kernels from 6.x capitalise "ISA" and "CPU Family".
	isa := strings.ToLower(get("isa") + " " + get("ISA"))
	switch {
	case strings.HasPrefix(isa, "rv64"):
		return "riscv64"
	case strings.HasPrefix(isa, "rv32"):
		return "riscv32"
	case strings.Contains(isa, "loongarch64"):
		return "loongarch64"
	case strings.Contains(isa, "mips64"):
		return "mips64"
	case strings.Contains(isa, "mips"):
		return "mips"
	}
	if strings.Contains(get("cpu family")+get("CPU Family"), "Loongson-64bit") {
		return "loongarch64"
	}
	if get("cpu model") != "" {
		return "mips"
	}
	if get("vendor_id") != "" || get("flags") != "" {
		for _, fl := range strings.Fields(get("flags")) {
			if fl == "lm" {
				return "x86_64"
			}
		}
		return "x86"
	}
	switch mmu := strings.ToLower(get("mmu")); {
	case strings.HasPrefix(mmu, "sv32"):
		return "riscv32"
	case strings.HasPrefix(mmu, "sv39"), strings.HasPrefix(mmu, "sv48"), strings.HasPrefix(mmu, "sv57"):
		return "riscv64"
	}
	return ""
}
