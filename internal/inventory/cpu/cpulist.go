package cpu

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
)

// ParseCPUList parses the kernel's CPU list format ("0-3,6", "0 1 2 3",
// "4", "") into sorted, de-duplicated CPU numbers. Commas and white space
// both separate items, as related_cpus uses spaces and *_list files use
// commas. An empty string yields an empty list. It fails on anything that is
// not a number or range, on reversed ranges and on numbers above 65535.
func ParseCPUList(s string) ([]int, error) {
	seen := map[int]bool{}
	fields := strings.FieldsFunc(s, func(r rune) bool {
		return r == ',' || r == ' ' || r == '\t' || r == '\n' || r == '\r'
	})
	for _, f := range fields {
		lo, hi, err := parseCPURange(f)
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

// ReadCPUList reads a sysfs CPU list file (machine path p) through h; nil
// when it is unreadable, malformed or empty.
func ReadCPUList(h *host.Host, p string) []int {
	s, err := h.ReadString(p)
	if err != nil {
		return nil
	}
	list, err := ParseCPUList(s)
	if err != nil || len(list) == 0 {
		return nil
	}
	return list
}

// OnlineCPUs returns the kernel's list of online CPUs
// (/sys/devices/system/cpu/online); nil when it is unreadable, malformed or
// empty.
func OnlineCPUs(h *host.Host) []int { return ReadCPUList(h, "/sys/devices/system/cpu/online") }

// ParseCPUSelection parses a list of CPUs a user asked for (the value of a
// --cpu option, e.g. "0,4-7"): the kernel's list format as ParseCPUList
// reads it, except that an empty list is an error.
func ParseCPUSelection(s string) ([]int, error) {
	list, err := ParseCPUList(s)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, fmt.Errorf("empty CPU list %q", s)
	}
	return list, nil
}

// parseCPURange parses "N" or "N-M" (the kernel also writes "N-M:stride/group"
// in cpusets, which is not accepted here).
func parseCPURange(f string) (lo, hi int, err error) {
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
	if n > kernelfile.MaxCPUID {
		return 0, fmt.Errorf("CPU number %d above %d", n, kernelfile.MaxCPUID)
	}
	return n, nil
}

// FormatCPUList writes CPU numbers in the kernel's compact list format,
// e.g. [0 1 2 3 6] → "0-3,6". The input need not be sorted; duplicates are
// dropped. An empty list gives "".
func FormatCPUList(ids []int) string {
	if len(ids) == 0 {
		return ""
	}
	s := slices.Sorted(slices.Values(ids))
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j+1 < len(s) && (s[j+1] == s[j]+1 || s[j+1] == s[j]) {
			j++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		if s[j] == s[i] {
			b.WriteString(strconv.Itoa(s[i]))
		} else {
			fmt.Fprintf(&b, "%d-%d", s[i], s[j])
		}
		i = j + 1
	}
	return b.String()
}
