package kernelfile

import (
	"bytes"
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

// MaxTimeInStates is the most frequencies ParseTimeInState keeps from one
// time_in_state file. A real policy lists a few dozen; a damaged or
// hostile file of 250,000 lines would otherwise become 250,000 series per
// Prometheus scrape and as many entries per phase of a result.
const MaxTimeInStates = 256

// ParseTimeInState parses time_in_state ("<kHz> <ticks>" per line) in the
// kernel's order, keeping the first MaxTimeInStates frequencies (see
// ParseTimeInStateBounded for how many more there were). Empty lines are
// skipped; other lines that are not two numbers (a positive frequency, a
// non-negative time) are skipped and counted in bad, for callers that
// refuse a damaged file.
func ParseTimeInState(data []byte) (states []StateTime, bad int) {
	states, bad, _ = ParseTimeInStateBounded(data, MaxTimeInStates)
	return states, bad
}

// ParseTimeInStateBounded is ParseTimeInState keeping the first limit
// frequencies; dropped counts the valid lines after them, which are not
// parsed further than that.
func ParseTimeInStateBounded(data []byte, limit int) (states []StateTime, bad, dropped int) {
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		f := strings.Fields(string(line))
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
		if len(states) >= limit {
			dropped++
			continue
		}
		states = append(states, StateTime{KHz: khz, Ticks: ticks})
	}
	return states, bad, dropped
}
