package cpu

import (
	"boardbench/internal/lazyre"
	"strconv"
	"strings"
)

// riscvVendorPrefix names a device-tree vendor prefix that appears in the
// RISC-V "uarch" line of /proc/cpuinfo (lower case); "" when unknown.
func riscvVendorPrefix(prefix string) string {
	switch prefix {
	case "sifive":
		return "SiFive"
	case "thead":
		return "T-Head"
	case "spacemit":
		return "SpacemiT"
	case "andestech":
		return "Andes"
	case "starfive":
		return "StarFive"
	case "sophgo":
		return "Sophgo"
	case "canaan":
		return "Canaan"
	case "kendryte":
		return "Kendryte"
	case "eswin":
		return "ESWIN"
	case "allwinner":
		return "Allwinner"
	case "openhwgroup":
		return "OpenHW"
	case "ultrarisc":
		return "UltraRISC"
	case "xuantie":
		return "XuanTie"
	}
	return ""
}

// riscvVendorID names a JEDEC-based mvendorid value of a RISC-V CPU; ""
// when unknown.
func riscvVendorID(id uint64) string {
	switch id {
	case 0x489:
		return "SiFive"
	case 0x5b7:
		return "T-Head"
	case 0x710:
		return "SpacemiT"
	case 0x31e:
		return "Andes"
	}
	return ""
}

// RISCVCoreName derives a core name from the RISC-V "uarch" line of
// /proc/cpuinfo (a device-tree compatible string): "sifive,u74-mc" →
// ("SiFive", "SiFive U74-MC"), "thead,c906" → ("T-Head", "T-Head C906").
// Unknown vendor prefixes are kept as written. ok is false for an empty or
// unusable value.
func RISCVCoreName(uarch string) (vendor, name string, ok bool) {
	uarch = strings.TrimSpace(uarch)
	prefix, model, found := strings.Cut(uarch, ",")
	if !found {
		if uarch == "" || !printableASCII(uarch) {
			return "", "", false
		}
		return "", strings.ToUpper(uarch), true
	}
	prefix, model = strings.TrimSpace(prefix), strings.TrimSpace(model)
	if model == "" || !printableASCII(uarch) {
		return "", "", false
	}
	vendor = riscvVendorPrefix(strings.ToLower(prefix))
	if vendor == "" {
		vendor = prefix
	}
	return vendor, vendor + " " + strings.ToUpper(model), true
}

// RISCVVendorName names a RISC-V mvendorid value ("0x489" → "SiFive").
func RISCVVendorName(mvendorid string) (string, bool) {
	v, ok := firstHex(mvendorid)
	if !ok {
		return "", false
	}
	n := riscvVendorID(v)
	return n, n != ""
}

func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// X86VendorName names an x86 vendor_id ("GenuineIntel" → "Intel").
func X86VendorName(vendorID string) (string, bool) {
	switch strings.TrimSpace(vendorID) {
	case "GenuineIntel":
		return "Intel", true
	case "AuthenticAMD":
		return "AMD", true
	case "HygonGenuine":
		return "Hygon", true
	case "CentaurHauls":
		return "Centaur", true
	case "Shanghai":
		return "Zhaoxin", true
	case "GenuineTMx86":
		return "Transmeta", true
	case "VIA VIA VIA":
		return "VIA", true
	}
	return "", false
}

var (
	x86Marks     = lazyre.Regexp(`\((R|r|TM|tm)\)|®|™`)
	x86Gen       = lazyre.Regexp(`^\d+(st|nd|rd|th) Gen `)
	x86Clock     = lazyre.Regexp(`\s*@\s*[0-9.]+\s*[GM]Hz.*$`)
	x86Suffixes  = lazyre.Regexp(`(?i)\s+(\d+-Core\s+)?(Processor|CPU)\b`)
	x86Graphics  = lazyre.Regexp(`\s+with\s+Radeon.*$`)
	spaceRuns    = lazyre.Regexp(`\s+`)
	mipsFPU      = lazyre.Regexp(`\s+FPU\s+V\S*.*$`)
	mipsRevision = lazyre.Regexp(`^(.*\S)\s+(V\d+(\.\d+)*)$`)
)

// X86CoreName shortens an x86 "model name" to the name of the processor:
// "12th Gen Intel(R) Core(TM) i7-1260P" → "Intel Core i7-1260P",
// "AMD Ryzen 7 5800X 8-Core Processor" → "AMD Ryzen 7 5800X",
// "Intel(R) Xeon(R) CPU E5-2680 v4 @ 2.40GHz" → "Intel Xeon E5-2680 v4".
func X86CoreName(modelName string) string {
	s := x86Marks.ReplaceAllString(modelName, " ")
	s = spaceRuns.ReplaceAllString(strings.TrimSpace(s), " ")
	s = x86Gen.ReplaceAllString(s, "")
	s = x86Clock.ReplaceAllString(s, "")
	s = x86Graphics.ReplaceAllString(s, "")
	s = x86Suffixes.ReplaceAllString(s, "")
	return spaceRuns.ReplaceAllString(strings.TrimSpace(s), " ")
}

// MIPSCoreName splits a MIPS "cpu model" line into core name and revision:
// "Ingenic JZRISC V4.15  FPU V0.0" → ("Ingenic JZRISC", "V4.15"),
// "MIPS 24KEc V5.0" → ("MIPS 24KEc", "V5.0").
func MIPSCoreName(cpuModel string) (name, revision string) {
	s := spaceRuns.ReplaceAllString(strings.TrimSpace(cpuModel), " ")
	s = mipsFPU.ReplaceAllString(s, "")
	if m := mipsRevision.FindStringSubmatch(s); m != nil {
		return m[1], m[2]
	}
	return s, ""
}

// armGenericModel matches the model names ARM kernels print instead of a
// core name ("ARMv7 Processor rev 4 (v7l)", "AArch64 Processor rev 4
// (aarch64)").
var armGenericModel = lazyre.Regexp(`^(ARMv\d+|AArch64)(-compatible)? [Pp]rocessor`)

// parseIntField reads a decimal integer value of a cpuinfo line.
func parseIntField(v string) (int, bool) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil {
		return 0, false
	}
	return n, true
}

// parseFloatField reads a number value of a cpuinfo line ("48.00").
func parseFloatField(v string) (float64, bool) {
	f, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || f != f || f < 0 || f > 1e12 {
		return 0, false
	}
	return f, true
}
