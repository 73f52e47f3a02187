package proc

import (
	"slices"
	"strconv"
	"sync"
	"syscall"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
)

// kin is everything that belongs to a started program: its process group,
// and either its cgroup or, without one, the descendants found by scanning
// /proc while it runs.
type kin struct {
	pgid int
	cg   *cgroup    // nil without a cgroup
	live *host.Host // the live system's /proc; nil when it cannot be read

	mu      sync.Mutex
	tracked map[int]uint64 // descendants seen: pid → start time
}

// newKin starts following the program pgid (also its pid), in cg if not
// nil.
func newKin(pgid int, cg *cgroup) *kin {
	k := &kin{pgid: pgid, cg: cg, tracked: map[int]uint64{}}
	k.live, _ = host.New("/")
	if cg == nil && k.live != nil {
		if st, err := kernelfile.ReadPIDStat(k.live, pgid); err == nil {
			k.tracked[pgid] = st.StartTime
		}
	}
	return k
}

// scanning reports whether descendants are found by scanning /proc.
func (k *kin) scanning() bool { return k.cg == nil }

// processes reads the stat line of every process; nil when /proc cannot be
// read.
func (k *kin) processes() map[int]kernelfile.PIDStat {
	if k.live == nil {
		return nil
	}
	names, err := k.live.ReadDirNames("/proc")
	if err != nil {
		return nil
	}
	out := make(map[int]kernelfile.PIDStat, len(names))
	for _, n := range names {
		if n == "" || n[0] < '0' || n[0] > '9' {
			continue
		}
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		if st, err := kernelfile.ReadPIDStat(k.live, pid); err == nil {
			out[st.PID] = st
		} // else gone meanwhile
	}
	return out
}

// scan records the program's descendants: every living process whose
// parent is the program or a descendant already recorded (its parent chain
// is followed to the end within one scan), and every member of the process
// group. Without a scan-based kin it does nothing.
func (k *kin) scan() {
	if !k.scanning() {
		return
	}
	procs := k.processes()
	if procs == nil {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for pid, start := range k.tracked {
		if st, ok := procs[pid]; !ok || st.StartTime != start || st.Dead() {
			delete(k.tracked, pid)
		}
	}
	for added := true; added; {
		added = false
		for pid, st := range procs {
			if _, ok := k.tracked[pid]; ok || st.Dead() {
				continue
			}
			if _, parent := k.tracked[st.PPID]; parent || st.PGRP == k.pgid {
				k.tracked[pid] = st.StartTime
				added = true
			}
		}
	}
}

// living returns the process ids of the members of the program's group,
// cgroup and recorded descendants that have not exited, sorted. When the
// group exists but none of its members can be seen in /proc, it returns
// -pgid, meaning "the group": it counts as alive.
func (k *kin) living() []int {
	if k.cg != nil {
		if pids, err := k.cg.procs(); err == nil {
			return pids
		}
	}
	procs := k.processes()
	var out []int
	members := 0
	k.mu.Lock()
	for pid, st := range procs {
		inGroup := st.PGRP == k.pgid
		if inGroup {
			members++
		}
		if st.Dead() {
			continue
		}
		if start, ok := k.tracked[pid]; inGroup || ok && start == st.StartTime {
			out = append(out, pid)
		}
	}
	k.mu.Unlock()
	if members == 0 && syscall.Kill(-k.pgid, 0) != syscall.ESRCH {
		out = append(out, -k.pgid)
	}
	slices.Sort(out)
	return out
}

// signal sends sig to the process group and to every living descendant.
func (k *kin) signal(sig syscall.Signal) {
	_ = syscall.Kill(-k.pgid, sig)
	for _, pid := range k.living() {
		if pid > 0 {
			_ = syscall.Kill(pid, sig)
		}
	}
}

// kill sends SIGKILL to everything: the cgroup at once (cgroup.kill also
// catches processes forked meanwhile), the group and the descendants.
func (k *kin) kill() {
	if k.cg != nil {
		k.cg.kill()
	}
	k.signal(syscall.SIGKILL)
}

// release removes the cgroup once the program is done.
func (k *kin) release() {
	if k.cg != nil {
		k.cg.remove()
	}
}

// groupAlive reports whether process group pgid has a member that is not a
// zombie. kill(pgid, 0) alone also counts zombies: orphans are reparented
// to init, which in some containers reaps them only every few seconds.
// When the members cannot be seen in /proc, the group counts as alive.
func groupAlive(live *host.Host, pgid int) bool {
	if syscall.Kill(-pgid, 0) == syscall.ESRCH {
		return false
	}
	k := &kin{pgid: pgid, live: live}
	return len(k.living()) > 0
}
