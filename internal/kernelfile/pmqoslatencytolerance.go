package kernelfile

import (
	"strconv"
	"strings"
)

// LatencyTolerance is a device's power/pm_qos_latency_tolerance_us: the
// latency the device may add by saving power (for an NVMe controller: the
// APST limit, which starts as nvme_core.default_ps_max_latency_us).
type LatencyTolerance struct {
	// Us is the tolerance in microseconds; nil for "auto" or "any".
	Us *int64
	// Mode is "auto" (the driver decides) or "any" (no limit); "" with Us.
	Mode string
}

// ParsePMQoSLatencyTolerance reads power/pm_qos_latency_tolerance_us:
// "auto", "any" or a number of microseconds. ok is false otherwise.
func ParsePMQoSLatencyTolerance(data []byte) (LatencyTolerance, bool) {
	s := strings.TrimSpace(string(data))
	switch s {
	case "auto", "any":
		return LatencyTolerance{Mode: s}, true
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return LatencyTolerance{}, false
	}
	return LatencyTolerance{Us: &v}, true
}
