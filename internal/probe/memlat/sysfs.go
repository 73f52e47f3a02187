package memlat

import (
	"fmt"
	"math"
	"sort"

	"boardbench/internal/host"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/note"
)

// SysfsCache is one data or unified cache as sysfs describes it for a CPU.
type SysfsCache struct {
	Level     int    `json:"level"`
	Type      string `json:"type"`
	SizeBytes int64  `json:"size_bytes"`
	// SharedCPUs is shared_cpu_list, e.g. "0-3"; "" when not exposed.
	SharedCPUs string `json:"shared_cpus,omitempty"`
}

// ReadCaches reads the data and unified caches of cpu from
// /sys/devices/system/cpu/cpuN/cache/index*/{level,type,size} through the
// inventory's walk (cpu.ReadCPUCaches), sorted by level. Instruction caches,
// caches of no level and caches of unknown size are left out. What cannot be
// read is noted.
func ReadCaches(h *host.Host, cpuID int) ([]SysfsCache, note.List) {
	indexes, notes, ok := cpu.ReadCPUCaches(h, cpuID)
	if !ok {
		notes.Add(fmt.Sprintf("cpu%d cache sizes", cpuID), note.NotExposed)
		return nil, notes
	}
	var out []SysfsCache
	for _, c := range indexes {
		if c.Type != "Data" && c.Type != "Unified" || c.SizeBytes == nil {
			continue
		}
		if c.Level <= 0 {
			notes.Add(c.Dir+"/level", note.Malformed)
			continue
		}
		out = append(out, SysfsCache{Level: c.Level, Type: c.Type, SizeBytes: *c.SizeBytes, SharedCPUs: c.SharedCPUList})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Level < out[j].Level })
	return out, notes
}

// CacheLevel is a step of the latency curve next to the sysfs cache it
// most likely is.
type CacheLevel struct {
	// DetectedBytes is the largest block that still fit the level.
	DetectedBytes int64 `json:"detected_bytes"`
	// LatencyNS is the latency at DetectedBytes.
	LatencyNS float64 `json:"latency_ns"`
	// SysfsLevel and SysfsBytes describe the matching sysfs cache; nil
	// when none matched (no sysfs data, or no cache within a factor of two).
	SysfsLevel *int   `json:"sysfs_level"`
	SysfsBytes *int64 `json:"sysfs_bytes"`
}

// MatchTolerance is how far (as a power of two) a detected size may be from
// a sysfs cache size to match it: block sizes are powers of two, and caches
// of 3 MiB or 48 KiB fall between them.
const MatchTolerance = 1.0

// Match pairs each detected level with a sysfs cache: in order, the cache of
// a higher level than the previous match whose size is nearest (within a
// factor of two).
func Match(levels []Level, caches []SysfsCache) []CacheLevel {
	out := make([]CacheLevel, 0, len(levels))
	minLevel := 0
	for _, l := range levels {
		cl := CacheLevel{DetectedBytes: l.SizeBytes, LatencyNS: l.LatencyNS}
		best, bestDist := -1, math.Inf(1)
		for i, c := range caches {
			if c.Level <= minLevel || c.SizeBytes <= 0 {
				continue
			}
			d := math.Abs(math.Log2(float64(l.SizeBytes) / float64(c.SizeBytes)))
			if d <= MatchTolerance+1e-9 && d < bestDist {
				best, bestDist = i, d
			}
		}
		if best >= 0 {
			lv, sz := caches[best].Level, caches[best].SizeBytes
			cl.SysfsLevel, cl.SysfsBytes = &lv, &sz
			minLevel = lv
		}
		out = append(out, cl)
	}
	return out
}

// LargestCache returns the size of the largest cache in caches, 0 for none.
func LargestCache(caches []SysfsCache) int64 {
	var m int64
	for _, c := range caches {
		m = max(m, c.SizeBytes)
	}
	return m
}
