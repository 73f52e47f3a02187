package kernelfile

import (
	"fmt"
	"strconv"
	"strings"
)

// maxCacheBytes bounds the cache sizes ParseCacheSize accepts (1 PiB): far
// above any cache, low enough that no multiplication overflows.
const maxCacheBytes = 1 << 50

// ParseCacheSize parses the size attribute of a sysfs cache
// (/sys/devices/system/cpu/cpuN/cache/indexM/size): "32K", "1024K", "8M",
// "1G" (binary multiples, either case) or a plain byte count. It fails on
// anything else, on sizes of zero (sysfs' "not described") and on sizes
// above 1 PiB.
func ParseCacheSize(s string) (int64, error) {
	digits := strings.TrimSpace(s)
	mult := int64(1)
	if n := len(digits); n > 0 {
		switch digits[n-1] {
		case 'K', 'k':
			mult = 1 << 10
		case 'M', 'm':
			mult = 1 << 20
		case 'G', 'g':
			mult = 1 << 30
		}
		if mult != 1 {
			digits = digits[:n-1]
		}
	}
	v, err := strconv.ParseInt(digits, 10, 64)
	if err != nil || v <= 0 || v > maxCacheBytes/mult {
		return 0, fmt.Errorf("not a cache size: %q", truncate(strings.TrimSpace(s), 32))
	}
	return v * mult, nil
}

// truncate shortens s to n bytes for an error message.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
