package kernelfile

import (
	"strconv"
	"strings"
)

// ParseCgroup2Path returns the cgroup v2 path of /proc/PID/cgroup: the
// path of its "0::PATH" line (e.g. "/user.slice/session-2.scope"). ok is
// false without such a line (cgroup v1 only), and when the path is not
// absolute or climbs with "..".
func ParseCgroup2Path(data []byte) (string, bool) {
	for line := range strings.SplitSeq(string(data), "\n") {
		if p, found := strings.CutPrefix(line, "0::"); found {
			if !strings.HasPrefix(p, "/") || strings.Contains(p, "/..") {
				return "", false
			}
			return p, true
		}
	}
	return "", false
}

// ParseCgroupProcs returns the process ids of a cgroup v2 cgroup.procs
// file, one per line; what is not a positive number is skipped.
func ParseCgroupProcs(data []byte) []int {
	var pids []int
	for _, f := range strings.Fields(string(data)) {
		if pid, err := strconv.Atoi(f); err == nil && pid > 0 {
			pids = append(pids, pid)
		}
	}
	return pids
}

// ParseCgroupMemoryMax parses a cgroup v2 memory.max (or memory.high):
// a byte count, or "max" for no limit. limited is false for "max"; ok is
// false for anything else.
func ParseCgroupMemoryMax(data []byte) (bytes int64, limited, ok bool) {
	s := strings.TrimSpace(string(data))
	if s == "max" {
		return 0, false, true
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return 0, false, false
	}
	return v, true, true
}
