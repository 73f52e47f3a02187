package kernelfile

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// ParseCPUList parses the kernel's CPU list format of sysfs and procfs
// (/sys/devices/system/cpu/online, cpufreq's related_cpus and
// affected_cpus, a cache's shared_cpu_list, /proc/irq/N/smp_affinity_list:
// "0-3,6", "0 1 2 3", "4", "") into sorted, de-duplicated CPU numbers.
// Commas and white space both separate items, as related_cpus uses spaces
// and *_list files use commas. An empty string yields an empty list. It
// fails on anything that is not a number or range, on reversed ranges and
// on numbers above MaxCPUID.
func ParseCPUList(s string) ([]int, error) {
	seen := map[int]bool{}
	fields := strings.FieldsFunc(s, func(r rune) bool {
		return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r'
	})
	for _, f := range fields {
		lo, hi, err := ParseCPURange(f)
		if err != nil {
			return nil, err
		}
		for i := lo; i <= hi; i++ {
			seen[i] = true
		}
	}
	out := slices.AppendSeq(make([]int, 0, len(seen)), maps.Keys(seen)) // never nil: JSON []
	slices.Sort(out)
	return out, nil
}

// ParseCPURange parses one item of a CPU list, "N" or "N-M" (the kernel
// also writes "N-M:stride/group" in cpusets, which is not accepted here).
func ParseCPURange(f string) (lo, hi int, err error) {
	a, b, isRange := strings.Cut(f, "-")
	lo, err = parseCPUNumber(a)
	if err != nil {
		return 0, 0, fmt.Errorf("cpu list item %q: %v", f, err)
	}
	hi = lo
	if isRange {
		hi, err = parseCPUNumber(b)
		if err != nil {
			return 0, 0, fmt.Errorf("cpu list item %q: %v", f, err)
		}
		if hi < lo {
			return 0, 0, fmt.Errorf("cpu list item %q: reversed range", f)
		}
	}
	return lo, hi, nil
}

func parseCPUNumber(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("not a CPU number: %q", s)
	}
	if n > MaxCPUID {
		return 0, fmt.Errorf("CPU number %d above %d", n, MaxCPUID)
	}
	return n, nil
}
