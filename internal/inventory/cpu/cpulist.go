package cpu

import (
	"errors"
	"fmt"
	"maps"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
)

// ParseCPUList parses the kernel's CPU list format ("0-3,6", "0 1 2 3",
// "4", ""); see kernelfile.ParseCPUList.
func ParseCPUList(s string) ([]int, error) { return kernelfile.ParseCPUList(s) }

// ReadCPUList reads a sysfs CPU list file (machine path p) through h; nil
// when it is unreadable, malformed or empty.
func ReadCPUList(h *host.Host, p string) []int {
	s, err := h.ReadString(p)
	if err != nil {
		return nil
	}
	list, err := kernelfile.ParseCPUList(s)
	if err != nil || len(list) == 0 {
		return nil
	}
	return list
}

// OnlineCPUs returns the kernel's list of online CPUs
// (/sys/devices/system/cpu/online); nil when it is unreadable, malformed or
// empty.
func OnlineCPUs(h *host.Host) []int { return ReadCPUList(h, "/sys/devices/system/cpu/online") }

// ParseSelection parses the CPUs a user asked for (the value of --cpu or
// --cpus, e.g. "0,4-7") and checks that each is among allowed, the CPUs this
// process may use. Elements are separated by commas, each a CPU number or a
// range "N-M", with optional spaces around them; a CPU named twice counts
// once. It fails, with one line naming the culprit, on an empty list or
// element ("0,,1", "0,"), a malformed or reversed range, a number above
// 65535 and a CPU not in allowed (the message names the available ones).
// The result is sorted. Callers report the error as a usage error (exit 2).
func ParseSelection(s string, allowed []int) ([]int, error) {
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("empty CPU list")
	}
	seen := map[int]bool{}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			return nil, fmt.Errorf("empty element in CPU list %q", s)
		}
		lo, hi, err := kernelfile.ParseCPURange(f)
		if err != nil {
			return nil, err
		}
		for i := lo; i <= hi; i++ {
			seen[i] = true
		}
	}
	out := slices.Sorted(maps.Keys(seen))
	for _, c := range out {
		if !slices.Contains(allowed, c) {
			return nil, fmt.Errorf("cpu%d is not available to this process (available: %s)", c, orNone(FormatCPUList(allowed)))
		}
	}
	return out, nil
}

// orNone returns s, or "none" when it is empty.
func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
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

// FormatCPUMask writes CPUs as the hexadecimal mask the kernel reads in
// smp_affinity and rps_cpus ("3" for CPUs 0 and 1, "f" for 0-3), with a
// comma between 32-bit groups ("1,00000000" for CPU 32); negative numbers
// are left out and an empty set is "0".
func FormatCPUMask(cpus []int) string {
	var m big.Int
	for _, c := range cpus {
		if c >= 0 {
			m.SetBit(&m, c, 1)
		}
	}
	hex := m.Text(16)
	var groups []string
	for len(hex) > 8 {
		groups = append([]string{hex[len(hex)-8:]}, groups...)
		hex = hex[:len(hex)-8]
	}
	return strings.Join(append([]string{hex}, groups...), ",")
}
