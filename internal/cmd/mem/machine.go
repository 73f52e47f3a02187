package mem

import (
	"sort"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/memory"
	"boardbench/internal/note"
)

// machine is what the measurement plan needs to know about memory.
type machine struct {
	// memAvailableBytes is MemAvailable; 0 when unknown.
	memAvailableBytes int64
	// hugePageBytes is Hugepagesize; 0 when unknown.
	hugePageBytes int64
	// thpMode is the selected transparent huge page mode ("always",
	// "madvise", "never"); "" when THP is not exposed.
	thpMode string
}

// readMachine reads MemAvailable, Hugepagesize and the THP mode.
func readMachine(h *host.Host) (machine, note.List) {
	var m machine
	var notes note.List
	data, err := h.ReadFile("/proc/meminfo")
	if err != nil {
		notes.Add("/proc/meminfo", note.Unreadable)
	} else {
		if v, ok := memory.MeminfoField(data, "MemAvailable"); ok {
			m.memAvailableBytes = v
		} else {
			notes.Add("MemAvailable", note.NotExposed)
		}
		if v, ok := memory.MeminfoField(data, "Hugepagesize"); ok && v > 0 {
			m.hugePageBytes = v
		}
	}
	if s, err := h.ReadString("/sys/kernel/mm/transparent_hugepage/enabled"); err == nil {
		m.thpMode = selectedMode(s)
	}
	return m, notes
}

// selectedMode returns the bracketed word of a sysfs choice list
// ("always [madvise] never" -> "madvise"), or "" when there is none.
func selectedMode(s string) string {
	for _, w := range strings.Fields(s) {
		if strings.HasPrefix(w, "[") && strings.HasSuffix(w, "]") {
			return strings.Trim(w, "[]")
		}
	}
	return ""
}

// target is one CPU to measure and its core type.
type target struct {
	cpu  int
	core string
}

// chooseTargets picks the CPUs to measure: the explicit list when given;
// otherwise one CPU of each distinct core type (the first usable CPU of the
// fastest cluster of that type); with no cluster information, the first
// usable CPU.
func chooseTargets(info cpu.Info, usable []int, explicit []int) []target {
	ok := map[int]bool{}
	for _, c := range usable {
		ok[c] = true
	}
	coreOf := map[int]string{}
	for _, cl := range info.Clusters {
		for _, c := range cl.CPUs {
			coreOf[c] = cl.Core
		}
	}
	if len(explicit) > 0 {
		out := make([]target, 0, len(explicit))
		for _, c := range explicit {
			out = append(out, target{cpu: c, core: coreOf[c]})
		}
		return out
	}
	clusters := append([]cpu.Cluster(nil), info.Clusters...)
	// Fastest cluster of each type first; ties keep sysfs order.
	sort.SliceStable(clusters, func(i, j int) bool {
		return mhz(clusters[i].MaxMHz) > mhz(clusters[j].MaxMHz)
	})
	seenCore := map[string]bool{}
	var out []target
	for _, cl := range clusters {
		if seenCore[cl.Core] {
			continue
		}
		for _, c := range cl.CPUs {
			if ok[c] {
				seenCore[cl.Core] = true
				out = append(out, target{cpu: c, core: cl.Core})
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].cpu < out[j].cpu })
	if len(out) == 0 && len(usable) > 0 {
		out = append(out, target{cpu: usable[0], core: coreOf[usable[0]]})
	}
	return out
}

func mhz(v *float64) float64 {
	if v == nil {
		return 0
	}
	return *v
}
