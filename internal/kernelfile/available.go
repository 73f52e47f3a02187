package kernelfile

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseAvailable returns the words of a sysfs list of options separated by
// white space: cpufreq's scaling_available_governors, devfreq's
// available_governors.
func ParseAvailable(s string) []string { return strings.Fields(s) }

// ParseFrequencies returns the frequencies of an available_frequencies
// list (devfreq in Hz, cpufreq's scaling_available_frequencies in kHz), in
// the order written; what is not a positive number is skipped.
func ParseFrequencies(s string) []int64 {
	var out []int64
	for _, f := range strings.Fields(s) {
		if v, err := strconv.ParseInt(f, 10, 64); err == nil && v > 0 {
			out = append(out, v)
		}
	}
	return out
}

// ParseFrequencyList parses an available_frequencies list strictly, for a
// caller that would rather have no list than a partial one: every item must
// be a positive integer. The frequencies come in the order written (an
// empty list is empty, not an error); the error names the first item that
// is not a frequency.
func ParseFrequencyList(s string) ([]int64, error) {
	out := []int64{}
	for _, f := range strings.Fields(s) {
		v, err := strconv.ParseInt(f, 10, 64)
		if err != nil || v <= 0 {
			return nil, fmt.Errorf("not a frequency: %q", truncate(f, 32))
		}
		out = append(out, v)
	}
	return out, nil
}
