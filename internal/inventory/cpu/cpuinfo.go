package cpu

import (
	"strconv"
	"strings"
)

// The values of /proc/cpuinfo lines that carry numbers (MIDR fields, RISC-V
// ids); the file itself is split by kernelfile.ParseCPUInfo.

// hexTokens returns the distinct hexadecimal numbers in a cpuinfo value, in
// order: "0xc07 & 0xc0f" → [0xc07 0xc0f]. Tokens without a 0x prefix are
// read as hexadecimal too.
func hexTokens(v string) []uint64 {
	var out []uint64
	seen := map[uint64]bool{}
	for _, f := range strings.FieldsFunc(v, func(r rune) bool {
		return r == ' ' || r == '\t' || strings.ContainsRune("&,;/|()+", r)
	}) {
		t := strings.TrimPrefix(strings.TrimPrefix(f, "0x"), "0X")
		if t == "" || len(t) > 16 {
			continue
		}
		n, err := strconv.ParseUint(t, 16, 64)
		if err != nil || seen[n] {
			continue
		}
		seen[n] = true
		out = append(out, n)
	}
	return out
}

// firstHex returns the first hexadecimal number in v.
func firstHex(v string) (uint64, bool) {
	t := hexTokens(v)
	if len(t) == 0 {
		return 0, false
	}
	return t[0], true
}

// firstDecimal returns the first decimal number in v ("4", "0x4" read as hex).
func firstDecimal(v string) (uint64, bool) {
	f := strings.Fields(v)
	if len(f) == 0 {
		return 0, false
	}
	if strings.HasPrefix(f[0], "0x") || strings.HasPrefix(f[0], "0X") {
		return firstHex(f[0])
	}
	n, err := strconv.ParseUint(f[0], 10, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}
