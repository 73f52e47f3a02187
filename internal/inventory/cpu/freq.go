package cpu

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// ParseFrequenciesKHz parses a cpufreq frequency list such as the content of
// scaling_available_frequencies ("408000 600000 816000 \n"): white-space
// separated frequencies in kHz. The result is sorted ascending without
// duplicates. It fails on any item that is not a positive integer.
func ParseFrequenciesKHz(s string) ([]int64, error) {
	seen := map[int64]bool{}
	for _, f := range strings.Fields(s) {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("not a frequency in kHz: %q", truncateString(f, 32))
		}
		seen[v] = true
	}
	return sortedKHz(seen), nil
}

// StateTime is one line of cpufreq stats/time_in_state: how long the policy
// spent at a frequency since boot (or since the stats were reset).
type StateTime struct {
	// KHz is the frequency in kHz.
	KHz int64
	// Ticks is the time spent there in USER_HZ ticks (usually 10 ms).
	Ticks int64
}

// ParseTimeInState parses cpufreq stats/time_in_state ("<kHz> <ticks>" per
// line) in the kernel's order. Empty lines are skipped; any other malformed
// line makes it fail.
func ParseTimeInState(s string) ([]StateTime, error) {
	var out []StateTime
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		if len(f) != 2 {
			return nil, fmt.Errorf("time_in_state line %q: want two numbers", truncateString(line, 40))
		}
		khz, err1 := strconv.ParseInt(f[0], 10, 64)
		ticks, err2 := strconv.ParseInt(f[1], 10, 64)
		if err1 != nil || err2 != nil || khz <= 0 || ticks < 0 {
			return nil, fmt.Errorf("time_in_state line %q: not numbers", truncateString(line, 40))
		}
		out = append(out, StateTime{KHz: khz, Ticks: ticks})
	}
	return out, nil
}

// FrequenciesFromTimeInState returns the distinct frequencies of a
// time_in_state table in kHz, sorted ascending.
func FrequenciesFromTimeInState(states []StateTime) []int64 {
	seen := map[int64]bool{}
	for _, st := range states {
		seen[st.KHz] = true
	}
	return sortedKHz(seen)
}

func sortedKHz(seen map[int64]bool) []int64 {
	out := make([]int64, 0, len(seen))
	for v := range seen {
		out = append(out, v)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// ParseKHz parses a single cpufreq value in kHz, e.g. the content of
// scaling_cur_freq. It fails on anything but a positive integer (some
// drivers write "<unknown>").
func ParseKHz(s string) (int64, error) {
	s = strings.TrimSpace(s)
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v <= 0 {
		return 0, fmt.Errorf("not a frequency in kHz: %q", truncateString(s, 32))
	}
	return v, nil
}

// KHzToMHz converts kHz to MHz.
func KHzToMHz(khz int64) float64 { return float64(khz) / 1000 }

// truncateString shortens s for error messages.
func truncateString(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
