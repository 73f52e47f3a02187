package cpu

import (
	"sort"
	"strconv"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
	"boardbench/internal/note"
)

// CacheIndex is one cache of one CPU as sysfs describes it in
// /sys/devices/system/cpu/cpuN/cache/indexM.
type CacheIndex struct {
	// Cache holds what the directory says. Type is "" when it cannot be
	// read; CPUs is the CPU itself when shared_cpu_list is absent or
	// malformed; SizeBytes is nil when size is.
	Cache
	// Dir is the index directory read.
	Dir string
	// SharedCPUList is shared_cpu_list as written ("0-3"), "" when it
	// cannot be read.
	SharedCPUList string
}

// ReadCPUCaches reads every cache sysfs describes for CPU id
// (cpuN/cache/index*), in directory order; it is the one walk of the cache
// directories, for the inventory and for the memory latency probe. An index
// without a readable level, or with a type that is not text, is left out;
// that, an unreadable type and a size that cannot be read or parsed are
// noted. ok is false when the CPU has no cache
// directory.
func ReadCPUCaches(h *host.Host, id int) (caches []CacheIndex, notes note.List, ok bool) {
	names, err := h.ReadDirNames(cpuPath(id, "cache"))
	if err != nil {
		return nil, nil, false
	}
	for _, n := range names {
		if !strings.HasPrefix(n, "index") {
			continue
		}
		dir := cpuPath(id, "cache/"+n)
		level, err := h.ReadInt(dir + "/level")
		if err != nil || level < 0 || level > 1<<31 {
			notes.Add(dir+"/level", readOrMalformed(err))
			continue
		}
		typ, err := h.ReadString(dir + "/type")
		if err != nil {
			notes.Add(dir+"/type", note.Unreadable)
		} else if !printableASCII(typ) {
			notes.Add(dir+"/type", note.Malformed)
			continue
		}
		ci := CacheIndex{Cache: Cache{Level: int(level), Type: typ, CPUs: []int{id}}, Dir: dir}
		if s, err := h.ReadString(dir + "/shared_cpu_list"); err == nil {
			ci.SharedCPUList = s
			if l, err := ParseCPUList(s); err == nil && len(l) > 0 {
				ci.CPUs = l
			}
		}
		if s, err := h.ReadString(dir + "/size"); err != nil {
			notes.Add(dir+"/size", note.Unreadable)
		} else if v, err := kernelfile.ParseCacheSize(s); err != nil {
			notes.Add(dir+"/size", note.Malformed)
		} else {
			ci.SizeBytes = int64Ptr(v)
		}
		ci.LineBytes = positive(readNonNegInt(h, dir+"/coherency_line_size"))
		ci.Ways = positive(readNonNegInt(h, dir+"/ways_of_associativity"))
		ci.Sets = positive(readNonNegInt(h, dir+"/number_of_sets"))
		caches = append(caches, ci)
	}
	return caches, notes, true
}

// readOrMalformed names the problem with a sysfs value: unreadable when
// reading failed, malformed when its content did not parse.
func readOrMalformed(err error) string {
	if err != nil {
		return note.Unreadable
	}
	return note.Malformed
}

// readCaches reads the caches of every CPU and keeps each cache instance
// once.
func (c *collector) readCaches() {
	seen := map[string]bool{}
	for _, cpu := range c.info.CPUs {
		indexes, _, _ := ReadCPUCaches(c.h, cpu.ID)
		for _, ci := range indexes {
			key := strconv.Itoa(ci.Level) + "|" + ci.Type + "|" + FormatCPUList(ci.CPUs)
			if seen[key] {
				continue
			}
			seen[key] = true
			c.info.Caches = append(c.info.Caches, ci.Cache)
		}
	}
	if len(c.info.Caches) == 0 {
		c.info.Notes.Add("caches", "no cache description in /sys/devices/system/cpu/cpu*/cache: "+c.missingReason())
	}
	typeOrder := map[string]int{"Data": 0, "Instruction": 1, "Unified": 2}
	sort.SliceStable(c.info.Caches, func(i, j int) bool {
		a, b := c.info.Caches[i], c.info.Caches[j]
		if a.Level != b.Level {
			return a.Level < b.Level
		}
		if typeOrder[a.Type] != typeOrder[b.Type] {
			return typeOrder[a.Type] < typeOrder[b.Type]
		}
		return a.CPUs[0] < b.CPUs[0]
	})
}

// readNonNegInt reads a sysfs integer; negative or absurd values count as
// unknown (nil).
func readNonNegInt(h *host.Host, p string) *int {
	v, err := h.ReadInt(p)
	if err != nil || v < 0 || v > 1<<31 {
		return nil
	}
	i := int(v)
	return &i
}
