package kernelfile

import (
	"strconv"
	"strings"
)

// ParseDefaultPSMaxLatency reads the NVMe driver's
// /sys/module/nvme_core/parameters/default_ps_max_latency_us ("100000"):
// the largest entry plus exit latency, in microseconds, of a
// non-operational power state APST may enter (0 turns APST off). ok is
// false when it is not a non-negative integer.
func ParseDefaultPSMaxLatency(data []byte) (int64, bool) {
	v, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	return v, err == nil && v >= 0
}
