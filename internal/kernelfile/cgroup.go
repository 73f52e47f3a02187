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
