package cpu

import (
	"fmt"
	"sort"
)

// CoreType is one core type to measure single-threaded: the CPUs of one
// cluster, or of several clusters of the same core type and maximum clock.
type CoreType struct {
	// Core is the core type, "" when unknown.
	Core string
	// Clusters are the inventory clusters the target stands for.
	Clusters []int
	// CPUs are all CPUs of the target.
	CPUs []int
	// Candidates are the CPUs this process may use, in the order tried
	// when pinning fails.
	Candidates []int
	// MaxMHz is the clusters' cpuinfo_max_freq, nil when unknown.
	MaxMHz *float64
}

// Label names the target in titles: "cpu4-7 (Cortex-A76)".
func (t CoreType) Label() string {
	s := "cpu" + FormatCPUList(t.CPUs)
	if t.Core != "" {
		s += " (" + t.Core + ")"
	}
	return s
}

// CoreTypes groups the clusters into core types: clusters of the same core
// type and maximum clock are one target (their single-threaded figures are
// the same), clusters of one core type at different maximum clocks (binned
// clusters, e.g. RK3588) are separate targets. Without cluster information
// all usable CPUs form one target. Core types are ordered by their first CPU. `run` measures each
// core type on its first candidate that can be pinned, and so does `mem`.
func CoreTypes(info Info, usable []int) []CoreType {
	ok := map[int]bool{}
	for _, c := range usable {
		ok[c] = true
	}
	if len(info.Clusters) == 0 {
		if len(usable) == 0 {
			return nil
		}
		return []CoreType{{CPUs: append([]int(nil), usable...), Candidates: append([]int(nil), usable...)}}
	}
	type key struct {
		core string
		mhz  float64
	}
	index := map[key]int{}
	var out []CoreType
	for i, cl := range info.Clusters {
		k := key{core: cl.Core, mhz: -1}
		if cl.MaxMHz != nil {
			k.mhz = *cl.MaxMHz
		}
		if cl.Core == "" {
			k.core = fmt.Sprintf("\x00cluster%d", i) // unknown cores are never merged
		}
		j, seen := index[k]
		if !seen {
			j = len(out)
			index[k] = j
			out = append(out, CoreType{Core: cl.Core, MaxMHz: cl.MaxMHz})
		}
		t := &out[j]
		t.Clusters = append(t.Clusters, i)
		t.CPUs = append(t.CPUs, cl.CPUs...)
		for _, c := range cl.CPUs {
			if ok[c] {
				t.Candidates = append(t.Candidates, c)
			}
		}
	}
	for i := range out {
		sort.Ints(out[i].CPUs)
		sort.Ints(out[i].Candidates)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].CPUs[0] < out[j].CPUs[0] })
	return out
}
