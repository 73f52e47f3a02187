package compare

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"boardbench/internal/result"
)

// Per-core-type figures of results whose core types differ (a Cortex-A76
// board against a Xeon) never share a name: they are matched by role
// instead, the fastest core type of each result with the fastest, the
// slowest with the slowest (coreRoles).

// knownCoreTypes returns the core types r's per-core figures were measured
// on (coreType), in the order they appear.
func knownCoreTypes(r *result.Result) []string {
	var out []string
	for _, pc := range perCore {
		for _, v := range pc.of(r.Summary) {
			if c := coreType(r, v); c != "" && !slices.Contains(out, c) {
				out = append(out, c)
			}
		}
	}
	return out
}

// matchByRole reports whether the results' per-core figures are matched by
// role: when two results name core types of which neither's are all among
// the other's (Cortex-A76 against a Xeon; Cortex-A78 + A55 against
// Cortex-A76 + A55). A result whose core types are among another's (a
// Pi 5's Cortex-A76 beside an RK3588's A76 and A55; a run that measured
// fewer core types) is matched by name.
func matchByRole(in []Input) bool {
	var sets [][]string
	for _, x := range in {
		if types := knownCoreTypes(x.Result); len(types) > 0 {
			sets = append(sets, types)
		}
	}
	subset := func(a, b []string) bool {
		for _, t := range a {
			if !slices.Contains(b, t) {
				return false
			}
		}
		return true
	}
	for i := range sets {
		for j := i + 1; j < len(sets); j++ {
			if !subset(sets[i], sets[j]) && !subset(sets[j], sets[i]) {
				return true
			}
		}
	}
	return false
}

// coreSpeed ranks a core type of r: its largest 7-Zip single-threaded
// rating, else its largest measured clock, else its clusters' highest
// cpufreq clock; 0 when r says nothing of its speed. The rank compares
// core types within one result only.
func coreSpeed(r *result.Result, core string) (float64, float64, float64) {
	most := func(vs []result.Value) float64 {
		m := 0.0
		for _, v := range vs {
			if coreType(r, v) == core {
				m = max(m, v.Value)
			}
		}
		return m
	}
	top := 0.0
	if r.Info != nil {
		for _, cl := range r.Info.CPU.Clusters {
			if cl.Core == core && cl.MaxMHz != nil {
				top = max(top, *cl.MaxMHz)
			}
		}
	}
	return most(r.Summary.SevenZipSingleMIPS), most(r.Summary.ClockMHz), top
}

// coreRoles maps each core type of r to its role among r's core types:
// "fastest", "slowest", and between them "2nd fastest", "3rd fastest"...
// A machine of one core type has only the fastest.
func coreRoles(r *result.Result) map[string]string {
	types := knownCoreTypes(r)
	slices.SortStableFunc(types, func(a, b string) int {
		a1, a2, a3 := coreSpeed(r, a)
		b1, b2, b3 := coreSpeed(r, b)
		if a1 > 0 && b1 > 0 {
			return cmp.Compare(b1, a1)
		}
		if a2 > 0 && b2 > 0 {
			return cmp.Compare(b2, a2)
		}
		return cmp.Compare(b3, a3)
	})
	roles := map[string]string{}
	for i, t := range types {
		switch {
		case i == 0:
			roles[t] = "fastest"
		case i == len(types)-1:
			roles[t] = "slowest"
		default:
			roles[t] = ordinal(i+1) + " fastest"
		}
	}
	return roles
}

func ordinal(n int) string {
	switch n {
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}

// roleNote says that per-core figures are matched by role, naming each
// result's core types from the fastest.
func roleNote(in []Input) string {
	var parts []string
	for _, x := range in {
		roles := coreRoles(x.Result)
		types := knownCoreTypes(x.Result)
		slices.SortStableFunc(types, func(a, b string) int { return cmp.Compare(roleRank(roles[a]), roleRank(roles[b])) })
		if len(types) == 0 {
			types = []string{"unknown"}
		}
		parts = append(parts, x.Label+": "+strings.Join(types, " > "))
	}
	return "the results have different core types (" + strings.Join(parts, "; ") +
		"): per-core-type figures are matched by role, the fastest core type of each result with the fastest and the slowest with the slowest " +
		"(ranked within each result by its 7-Zip single-threaded rating, else its measured clock, else its highest cpufreq clock)"
}

func roleRank(role string) int {
	switch role {
	case "fastest":
		return 0
	case "slowest":
		return 1 << 20
	}
	var n int
	fmt.Sscanf(role, "%d", &n)
	return n
}
