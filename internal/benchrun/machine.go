package benchrun

import (
	"math"
	"sort"
	"strings"

	"boardbench/internal/host"
)

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

func round1(v float64) float64 { return math.Round(v*10) / 10 }
func round2(v float64) float64 { return math.Round(v*100) / 100 }
