package cpu

import (
	"boardbench/internal/kernelfile"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// ParseFrequenciesKHz parses a cpufreq frequency list such as the content of
// scaling_available_frequencies ("408000 600000 816000 \n"): white-space
// separated frequencies in kHz, read by kernelfile.ParseFrequencyList. The
// result is sorted ascending without duplicates. It fails on any item that
// is not a positive integer.
func ParseFrequenciesKHz(s string) ([]int64, error) {
	list, err := kernelfile.ParseFrequencyList(s)
	if err != nil {
		return nil, fmt.Errorf("%w in kHz", err)
	}
	seen := map[int64]bool{}
	for _, v := range list {
		seen[v] = true
	}
	return sortedKHz(seen), nil
}

// FrequenciesFromTimeInState returns the distinct frequencies of a
// time_in_state table in kHz, sorted ascending.
func FrequenciesFromTimeInState(states []kernelfile.StateTime) []int64 {
	seen := map[int64]bool{}
	for _, st := range states {
		seen[st.KHz] = true
	}
	return sortedKHz(seen)
}

func sortedKHz(seen map[int64]bool) []int64 {
	out := slices.AppendSeq(make([]int64, 0, len(seen)), maps.Keys(seen)) // never nil: JSON []
	slices.Sort(out)
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
