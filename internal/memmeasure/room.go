package memmeasure

import (
	"path"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
)

// FreeReserveBytes is the part of MemAvailable that the measurement's
// buffers never take: issue 22 asks that a 64 MB board keep at least 16 MB
// free while `run --quick` measures. Where a quarter of MemAvailable would
// leave less, the buffers shrink to what lies above the reserve (down to
// the smallest buffers, with the probes' notes that the figures may then
// include cache hits) rather than push the machine, and boardbench's own
// program, out of memory. It changes nothing where MemAvailable (less the
// program's own pages) is above about 21 MB.
const FreeReserveBytes = 16_000_000

// maxCgroupDepth bounds the walk from boardbench's cgroup up to the root of
// the cgroup2 mount.
const maxCgroupDepth = 64

// Room is what bounds the memory budget besides MemAvailable.
type Room struct {
	// OwnFileBytes is boardbench's own resident file-backed memory (RssFile
	// of /proc/self/status): the pages of its program that it keeps mapped.
	// MemAvailable counts them as free to reclaim, but reclaiming them
	// makes boardbench read its own program again while it measures (on a
	// board with little memory it then thrashes); 0 when unknown.
	OwnFileBytes int64
	// CgroupBytes is the room left under the cgroup v2 memory limits of
	// boardbench's cgroup and its ancestors: the least memory.max minus
	// memory.current; CgroupLimited is false when no cgroup sets a limit or
	// none could be read.
	CgroupBytes   int64
	CgroupLimited bool
}

// ReadRoom reads the Room of this process through h: /proc/self/status,
// /proc/self/cgroup, /proc/self/mountinfo (where cgroup2 is mounted) and
// memory.max and memory.current of each cgroup from its own up. What
// cannot be read does not limit.
func ReadRoom(h *host.Host) Room {
	var r Room
	if data, err := h.ReadFile("/proc/self/status"); err == nil {
		if v, ok := kernelfile.ParseMeminfo(data)["RssFile"]; ok {
			r.OwnFileBytes = v
		}
	}
	r.CgroupBytes, r.CgroupLimited = cgroupRoom(h)
	return r
}

// cgroupRoom returns the least memory.max − memory.current from the
// process's cgroup up to the cgroup2 mount's root.
func cgroupRoom(h *host.Host) (int64, bool) {
	data, err := h.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0, false
	}
	cg, ok := kernelfile.ParseCgroup2Path(data)
	if !ok {
		return 0, false
	}
	mi, err := h.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return 0, false
	}
	var root, point string
	for _, m := range kernelfile.ParseMountInfo(string(mi)) {
		if m.FSType == "cgroup2" {
			root, point = m.Root, m.MountPoint
			break
		}
	}
	if point == "" {
		return 0, false
	}
	rel, ok := strings.CutPrefix(cg, root)
	if !ok || (rel != "" && !strings.HasPrefix(rel, "/") && root != "/") {
		return 0, false
	}
	rel = path.Clean("/" + rel)
	room, limited := int64(0), false
	for range maxCgroupDepth {
		dir := path.Join(point, rel)
		if lim, err := h.ReadFile(dir + "/memory.max"); err == nil {
			if v, isLimit, ok := kernelfile.ParseCgroupMemoryMax(lim); ok && isLimit {
				if cur, err := h.ReadInt(dir + "/memory.current"); err == nil && cur >= 0 {
					if left := max(v-cur, 0); !limited || left < room {
						room, limited = left, true
					}
				}
			}
		}
		if rel == "/" {
			break
		}
		rel = path.Dir(rel)
	}
	return room, limited
}

// Within lowers the plan's budget to a quarter of what this process may
// really use: MemAvailable less its own mapped program (Room.OwnFileBytes);
// to no more than leaves FreeReserveBytes of that free; and no more than
// a quarter of the room under its cgroup's memory limit. The budget
// never rises; an unknown MemAvailable keeps UnknownBudget's bound, under
// the cgroup's room too.
func (p Plan) Within(r Room) Plan {
	budget := p.BudgetBytes
	if budget > 0 {
		usable := max(budget*4-r.OwnFileBytes, 0)
		budget = min(usable/4, max(usable-FreeReserveBytes, 0))
	}
	if r.CgroupLimited {
		if b := r.CgroupBytes / 4; budget <= 0 && b < UnknownBudget || budget > 0 && b < budget {
			budget = b
		}
	}
	if budget != p.BudgetBytes {
		// A budget of 0 would mean "unknown": keep the smallest buffers.
		p.BudgetBytes = max(budget, 1)
	}
	return p
}
