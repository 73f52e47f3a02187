package tools

import (
	"boardbench/internal/lazyre"
	"context"
	"fmt"
	"strconv"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/note"
)

// OpenSSLBuild is what `openssl version -a` says about how the binary and its
// library were built.
type OpenSSLBuild struct {
	// LibraryVersion is the libcrypto version when the first line names it
	// ("(Library: OpenSSL 3.0.17 1 Jul 2025)"); it is the code that runs
	// `openssl speed`. Empty when not printed (OpenSSL before 1.1.1).
	LibraryVersion string `json:"library_version"`
	// BuiltOn is the "built on:" value as printed.
	BuiltOn string `json:"built_on"`
	// Platform is the "platform:" value, e.g. "debian-arm64".
	Platform string `json:"platform"`
	// Options is the "options:" value, e.g. "bn(64,64)".
	Options string `json:"options"`
	// Compiler is the "compiler:" line with the build's -D flags (for
	// example which assembler code paths were built in).
	Compiler string `json:"compiler"`
	// CPUInfo is the "CPUINFO:" value: the CPU capability bits OpenSSL
	// detected at run time (OpenSSL 3.x), e.g. "OPENSSL_armcap=0xbd".
	CPUInfo string `json:"cpuinfo"`
	// HardwareAES reports whether OpenSSL detected AES instructions (ARMv8
	// Crypto Extensions, x86 AES-NI), decoded from CPUInfo; null when
	// CPUInfo is absent or of an unknown kind.
	HardwareAES *bool `json:"hardware_aes"`
	// CPUInfoEnv is the capability override taken from the environment
	// (OPENSSL_armcap, OPENSSL_ia32cap...), the "env:" part of CPUInfo; ""
	// when none was set. An override changes which code paths run.
	CPUInfoEnv string `json:"cpuinfo_env,omitempty"`
	// OpenSSLDir, EnginesDir and ModulesDir are the "OPENSSLDIR:",
	// "ENGINESDIR:" and "MODULESDIR:" values without their quotes; ""
	// when not printed.
	OpenSSLDir string `json:"openssldir,omitempty"`
	EnginesDir string `json:"enginesdir,omitempty"`
	ModulesDir string `json:"modulesdir,omitempty"`
	// SeedingSource is the "Seeding source:" value, e.g. "os-specific".
	SeedingSource string `json:"seeding_source,omitempty"`
}

var (
	// "OpenSSL 3.0.19 27 Jan 2026 (Library: OpenSSL 3.0.19 27 Jan 2026)",
	// "OpenSSL 1.1.1f  31 Mar 2020", "LibreSSL 3.8.2".
	opensslVersionRE = lazyre.Regexp(`^(OpenSSL|LibreSSL)\s+(\S+)`)
	opensslLibraryRE = lazyre.Regexp(`\(Library:\s+(?:OpenSSL|LibreSSL)\s+(\S+)`)
	armcapRE         = lazyre.Regexp(`\bOPENSSL_armcap=0x([0-9a-fA-F]+)`)
	ia32capRE        = lazyre.Regexp(`\bOPENSSL_ia32cap=0x([0-9a-fA-F]+)`)
)

// Capability bits OpenSSL reports in CPUINFO (facts of OpenSSL's
// arm_arch.h and of the x86 CPUID layout it prints).
const (
	armcapAESBit  = 1 << 2  // ARMV8_AES
	ia32capAESBit = 1 << 57 // CPUID.1:ECX bit 25 (AES-NI), printed in the high word
)

// ParseOpenSSLVersion reads the output of `openssl version -a` (or plain
// `openssl version`). ok is false when the first line is not an OpenSSL or
// LibreSSL version line.
func ParseOpenSSLVersion(out string) (t Tool, ok bool) {
	lines := strings.Split(out, "\n")
	first := -1
	for i, l := range lines {
		if opensslVersionRE.MatchString(strings.TrimSpace(l)) {
			first = i
			break
		}
	}
	if first < 0 {
		return t, false
	}
	t.VersionLine = strings.TrimSpace(lines[first])
	m := opensslVersionRE.FindStringSubmatch(t.VersionLine)
	t.Flavor, t.Version = Flavor(m[1]), m[2]
	b := &OpenSSLBuild{}
	if lm := opensslLibraryRE.FindStringSubmatch(t.VersionLine); lm != nil {
		b.LibraryVersion = lm[1]
	}
	for _, raw := range lines[first+1:] {
		key, val, found := strings.Cut(strings.TrimSpace(raw), ":")
		if !found {
			continue
		}
		val = strings.TrimSpace(val)
		switch strings.ToLower(strings.TrimSpace(key)) {
		case "built on":
			setOnce(&b.BuiltOn, val)
		case "platform":
			setOnce(&b.Platform, val)
		case "options":
			setOnce(&b.Options, val)
		case "compiler":
			setOnce(&b.Compiler, val)
		case "cpuinfo":
			setOnce(&b.CPUInfo, val)
		case "openssldir":
			setOnce(&b.OpenSSLDir, strings.Trim(val, `"`))
		case "enginesdir":
			setOnce(&b.EnginesDir, strings.Trim(val, `"`))
		case "modulesdir":
			setOnce(&b.ModulesDir, strings.Trim(val, `"`))
		case "seeding source":
			setOnce(&b.SeedingSource, val)
		}
	}
	b.HardwareAES = hardwareAES(b.CPUInfo)
	if _, env, found := strings.Cut(b.CPUInfo, " env:"); found {
		b.CPUInfoEnv = strings.TrimSpace(env)
	}
	t.OpenSSL = b
	t.Comparable, t.ComparableReason = true, "AES-CBC throughput at 16 KiB blocks depends on the CPU and its AES instructions far more than on the "+string(t.Flavor)+" version; small-block figures are more version-dependent"
	return t, true
}

// setOnce keeps the first value seen: OpenSSL 3.x `speed` repeats some keys.
func setOnce(dst *string, v string) {
	if *dst == "" {
		*dst = v
	}
}

// hardwareAES decodes the AES capability bit of a CPUINFO value.
func hardwareAES(cpuinfo string) *bool {
	if m := armcapRE.FindStringSubmatch(cpuinfo); m != nil {
		v, err := strconv.ParseUint(m[1], 16, 64)
		if err != nil {
			return nil
		}
		b := v&armcapAESBit != 0
		return &b
	}
	if m := ia32capRE.FindStringSubmatch(cpuinfo); m != nil {
		v, err := strconv.ParseUint(m[1], 16, 64)
		if err != nil {
			return nil
		}
		b := v&ia32capAESBit != 0
		return &b
	}
	return nil
}

// FindOpenSSL returns the openssl command with its version and build
// details, or nil with a note saying why there is none.
func FindOpenSSL(ctx context.Context, h *host.Host) (*Tool, note.List) {
	var notes note.List
	if !h.HasCommand("openssl") {
		notes.Add("openssl", note.NotInstalled)
		return nil, notes
	}
	t, err := IdentifyOpenSSL(ctx, h, "openssl")
	if err != nil {
		notes.Add("openssl", err.Error())
		return nil, notes
	}
	return &t, notes
}

// IdentifyOpenSSL runs `openssl version -a` for the command name and parses
// it.
func IdentifyOpenSSL(ctx context.Context, h *host.Host, name string) (Tool, error) {
	p := commandPath(h, name)
	realPath, wrapper, notes := resolveWrappers(h, p)
	runPath := p
	if runPath == "" {
		runPath = name
	}
	out, err := h.Run(ctx, runPath, "version", "-a")
	t, ok := ParseOpenSSLVersion(string(out))
	if !ok {
		if err != nil {
			return Tool{Name: name, Path: p}, fmt.Errorf("running it failed: %v", err)
		}
		return Tool{Name: name, Path: p}, fmt.Errorf("%s: no version line in `openssl version -a`", note.Malformed)
	}
	t.Name, t.Path, t.RealPath, t.Wrapper, t.Notes = name, p, realPath, wrapper, notes
	return t, nil
}
