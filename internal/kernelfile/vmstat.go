package kernelfile

import (
	"slices"
	"strconv"
	"strings"
)

// ParseVMStat returns the named counters of /proc/vmstat ("pswpin 12" per
// line); every counter when no name is given. Malformed lines are skipped.
func ParseVMStat(data []byte, names ...string) map[string]uint64 {
	out := map[string]uint64{}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 || len(names) > 0 && !slices.Contains(names, f[0]) {
			continue
		}
		if v, err := strconv.ParseUint(f[1], 10, 64); err == nil {
			out[f[0]] = v
		}
	}
	return out
}
