package kernelfile

import (
	"strconv"
	"strings"
)

// StateTime is one line of cpufreq stats/time_in_state
// (/sys/devices/system/cpu/cpufreq/policyN/stats/time_in_state): how long
// the policy spent at a frequency since boot or since the stats were reset.
type StateTime struct {
	// KHz is the frequency in kHz.
	KHz int64
	// Ticks is the time spent there in USER_HZ ticks (10 ms).
	Ticks int64
}

// ParseTimeInState parses time_in_state ("<kHz> <ticks>" per line) in the
// kernel's order. Empty lines are skipped; other lines that are not two
// numbers (a positive frequency, a non-negative time) are skipped and
// counted in bad, for callers that refuse a damaged file.
func ParseTimeInState(data []byte) (states []StateTime, bad int) {
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 {
			bad++
			continue
		}
		khz, err1 := strconv.ParseInt(f[0], 10, 64)
		ticks, err2 := strconv.ParseInt(f[1], 10, 64)
		if err1 != nil || err2 != nil || khz <= 0 || ticks < 0 {
			bad++
			continue
		}
		states = append(states, StateTime{KHz: khz, Ticks: ticks})
	}
	return states, bad
}
