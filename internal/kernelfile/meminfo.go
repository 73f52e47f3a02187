package kernelfile

import (
	"math"
	"strconv"
	"strings"
)

// ParseMeminfo parses /proc/meminfo into counts keyed by field name
// ("MemTotal", "SwapFree", ...). Values given in kB (which the kernel means
// as KiB) are converted to bytes; unit-less values (page counts such as
// HugePages_Total) are kept as they are. Malformed lines, other units,
// negative values and byte counts that overflow are skipped.
func ParseMeminfo(data []byte) map[string]int64 {
	out := map[string]int64{}
	for _, line := range strings.Split(string(data), "\n") {
		key, rest, ok := strings.Cut(line, ":")
		key = strings.TrimSpace(key)
		if !ok || key == "" {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 || len(f) > 2 {
			continue
		}
		v, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || v < 0 {
			continue
		}
		if len(f) == 2 {
			if f[1] != "kB" || v > math.MaxInt64/1024 {
				continue
			}
			v *= 1024
		}
		out[key] = v
	}
	return out
}
