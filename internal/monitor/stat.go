package monitor

import (
	"strconv"
	"strings"
)

// ParseMeminfoKB returns the named fields of /proc/meminfo in kB.
func ParseMeminfoKB(data []byte, names ...string) map[string]int64 {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	out := map[string]int64{}
	for _, line := range strings.Split(string(data), "\n") {
		k, rest, ok := strings.Cut(line, ":")
		if !ok || !want[k] {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			continue
		}
		if v, err := strconv.ParseInt(f[0], 10, 64); err == nil {
			out[k] = v
		}
	}
	return out
}

// ParseVMStat returns the named counters of /proc/vmstat.
func ParseVMStat(data []byte, names ...string) map[string]uint64 {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	out := map[string]uint64{}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 || !want[f[0]] {
			continue
		}
		if v, err := strconv.ParseUint(f[1], 10, 64); err == nil {
			out[f[0]] = v
		}
	}
	return out
}

// ParseTimeInState reads cpufreq stats/time_in_state: "<kHz> <10 ms units>"
// per line. It returns kHz → seconds.
func ParseTimeInState(data []byte) map[int64]float64 {
	out := map[int64]float64{}
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		khz, err1 := strconv.ParseInt(f[0], 10, 64)
		t, err2 := strconv.ParseUint(f[1], 10, 64)
		if err1 != nil || err2 != nil || khz <= 0 {
			continue
		}
		out[khz] = float64(t) / 100
	}
	return out
}
