package benchrun

import (
	"bufio"
	"sort"
	"strconv"
	"strings"

	"boardbench/internal/host"
)

// meminfoBytes returns a /proc/meminfo field in bytes.
func meminfoBytes(data, name string) (int64, bool) {
	sc := bufio.NewScanner(strings.NewReader(data))
	for sc.Scan() {
		key, rest, ok := strings.Cut(sc.Text(), ":")
		if !ok || key != name {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			return 0, false
		}
		v, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil || v < 0 {
			return 0, false
		}
		if len(f) > 1 && f[1] == "kB" {
			v *= 1024
		}
		return v, true
	}
	return 0, false
}

// parseCPUList parses a kernel CPU list ("0-3,6"); ok is false when it is
// malformed.
func parseCPUList(s string) ([]int, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return []int{}, true
	}
	seen := map[int]bool{}
	var out []int
	for _, part := range strings.Split(s, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		a, err := strconv.Atoi(lo)
		if err != nil || a < 0 {
			return nil, false
		}
		b := a
		if isRange {
			if b, err = strconv.Atoi(hi); err != nil || b < a || b-a > 4096 {
				return nil, false
			}
		}
		for c := a; c <= b; c++ {
			if !seen[c] {
				seen[c] = true
				out = append(out, c)
			}
		}
	}
	sort.Ints(out)
	return out, true
}

// onlineCPUs reads /sys/devices/system/cpu/online; nil when unknown.
func onlineCPUs(h *host.Host) []int {
	s, err := h.ReadString("/sys/devices/system/cpu/online")
	if err != nil {
		return nil
	}
	cpus, ok := parseCPUList(s)
	if !ok {
		return nil
	}
	return cpus
}

// hostname returns the machine's host name, "" when unknown.
func hostname(h *host.Host) string {
	for _, p := range []string{"/proc/sys/kernel/hostname", "/etc/hostname"} {
		if s, err := h.ReadString(p); err == nil && strings.TrimSpace(s) != "" {
			return strings.TrimSpace(s)
		}
	}
	return ""
}

// intersect returns the members of a that are in b, in a's order.
func intersect(a, b []int) []int {
	in := map[int]bool{}
	for _, x := range b {
		in[x] = true
	}
	out := []int{}
	for _, x := range a {
		if in[x] {
			out = append(out, x)
		}
	}
	return out
}

// sortedInts returns the keys of m in ascending order.
func sortedInts[V any](m map[int]V) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}
