package kernelfile

import (
	"strconv"
	"strings"
)

// MMStat holds the first fields of a zram device's mm_stat, in bytes.
type MMStat struct {
	OrigData  int64
	ComprData int64
	MemUsed   int64
}

// ParseMMStat parses /sys/block/zramN/mm_stat ("orig_data_size
// compr_data_size mem_used_total ..."). ok is false when the first three
// fields are not non-negative integers.
func ParseMMStat(s string) (MMStat, bool) {
	f := strings.Fields(s)
	if len(f) < 3 {
		return MMStat{}, false
	}
	var v [3]int64
	for i := range v {
		n, err := strconv.ParseInt(f[i], 10, 64)
		if err != nil || n < 0 {
			return MMStat{}, false
		}
		v[i] = n
	}
	return MMStat{OrigData: v[0], ComprData: v[1], MemUsed: v[2]}, true
}
