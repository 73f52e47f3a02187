package osinfo

import (
	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
	"boardbench/internal/note"
)

// Kernel describes the running kernel.
type Kernel struct {
	// Release is `uname -r`, e.g. "6.1.0-rpi7-rpi-v8".
	Release string `json:"release"`
	// Build is `uname -v`, e.g. "#1 SMP PREEMPT Debian 1:6.1.63-1+rpt1 (2023-11-24)".
	Build string `json:"build"`
	// ProcVersion is the first line of /proc/version.
	ProcVersion string `json:"proc_version"`
	// Compiler is the compiler the kernel was built with, from
	// /proc/version, e.g. "gcc-12 (Debian 12.2.0-14) 12.2.0".
	Compiler string `json:"compiler"`
	// Machine is `uname -m`, e.g. "aarch64", "armv7l", "x86_64".
	Machine string `json:"machine"`
	// Arch is Machine in Debian's naming ("arm64", "arm", "amd64", "i386",
	// "riscv64", "loong64"...), "" when unknown.
	Arch string `json:"arch"`
	// Bits is 64 or 32; nil when Machine is unknown.
	Bits *int `json:"bits"`
	// Config is what the kernel's build configuration says that bears on
	// benchmark results; nil when neither /proc/config.gz nor
	// /boot/config-RELEASE could be read (note).
	Config *KernelConfig `json:"config"`
}

// KernelConfig is the part of the kernel's build configuration that
// reviewers read beside benchmark results (kernelfile.ConfigFacts).
type KernelConfig struct {
	// Source is the file read: /proc/config.gz or /boot/config-RELEASE.
	Source string `json:"source"`
	// HZ is CONFIG_HZ, the timer frequency in Hz; nil when not set.
	HZ *int `json:"hz"`
	// Preempt is the preemption model built in: "none", "voluntary",
	// "full", "lazy" or "rt"; "" when no symbol says.
	Preempt string `json:"preempt"`
	// PreemptDynamic is CONFIG_PREEMPT_DYNAMIC: the model can be changed
	// at boot (preempt=); Preempt is then the default.
	PreemptDynamic bool `json:"preempt_dynamic"`
	// Tick is the timer tick: "periodic", "idle" (CONFIG_NO_HZ_IDLE) or
	// "full" (CONFIG_NO_HZ_FULL); "" when no symbol says.
	Tick string `json:"tick"`
}

// collectKernelConfig keeps the facts of the kernel config kc (read here
// for release when nil); nil, with a note, when there is none.
func collectKernelConfig(h *host.Host, release string, kc *kernelfile.KernelConfig, notes *note.List) *KernelConfig {
	if kc == nil {
		kc = kernelfile.LoadKernelConfig(h, release, kernelfile.ConfigFactsSymbol)
	}
	if kc.Err != nil {
		notes.Add("kernel config", kc.Err.Error())
		return nil
	}
	f := kernelfile.ConfigFactsOf(kc.Symbols)
	return &KernelConfig{Source: kc.Source, HZ: f.HZ, Preempt: f.Preempt, PreemptDynamic: f.PreemptDynamic, Tick: f.Tick}
}

// machineArch maps `uname -m` to Debian's architecture family and bitness;
// bits is 0 for an unknown machine name. (A switch, not a map literal, so
// that it costs nothing when boardbench starts.)
func machineArch(machine string) (arch string, bits int) {
	switch machine {
	case "aarch64", "arm64":
		return "arm64", 64
	case "aarch64_be":
		return "arm64be", 64
	case "armv5tel", "armv5tejl", "armv6l", "armv7l", "armv7hl", "armv8l", "arm":
		return "arm", 32
	case "x86_64", "amd64":
		return "amd64", 64
	case "i386", "i486", "i586", "i686":
		return "i386", 32
	case "riscv64":
		return "riscv64", 64
	case "riscv32":
		return "riscv32", 32
	case "loongarch64":
		return "loong64", 64
	case "mips":
		return "mips", 32
	case "mipsel":
		return "mipsel", 32
	case "mips64":
		return "mips64", 64
	case "ppc":
		return "powerpc", 32
	case "ppc64":
		return "ppc64", 64
	case "ppc64le":
		return "ppc64el", 64
	case "s390x":
		return "s390x", 64
	case "sparc64":
		return "sparc64", 64
	}
	return "", 0
}

func collectKernel(h *host.Host, kc *kernelfile.KernelConfig, notes *note.List) Kernel {
	u := h.Uname()
	k := Kernel{Release: printable(u.Release), Build: printable(u.Version), Machine: printable(u.Machine)}
	if pv, err := h.ReadString("/proc/version"); err == nil {
		k.ProcVersion = printable(kernelfile.VersionLine(pv))
		k.Compiler = kernelfile.VersionCompiler(k.ProcVersion)
		if k.Release == "" {
			k.Release = kernelfile.VersionRelease(k.ProcVersion)
		}
	} else {
		notes.Add("/proc/version", note.Unreadable)
	}
	if k.Release == "" {
		notes.Add("kernel release", note.NotExposed)
	}
	if k.Build == "" {
		notes.Add("kernel build", note.NotExposed)
	}
	k.Config = collectKernelConfig(h, u.Release, kc, notes)
	if arch, bits := machineArch(k.Machine); bits != 0 {
		k.Arch = arch
		k.Bits = &bits
	} else if k.Machine == "" {
		notes.Add("kernel architecture", note.NotExposed)
	} else {
		notes.Add("kernel architecture", "unknown machine name "+k.Machine)
	}
	return k
}
