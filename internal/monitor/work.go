package monitor

import (
	"strconv"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
)

// userHZ is the unit of the CPU times in /proc/stat and /proc/PID/stat:
// the kernel reports them in USER_HZ ticks, 100 per second on every Linux
// architecture.
const userHZ = 100

// workAccount adds up the CPU time of the watched processes: the programs
// a step started (with their threads and, once reaped, their descendants)
// and boardbench itself. It is guarded by the Monitor's mutex.
type workAccount struct {
	procs map[int]*watchedProc
	// total is the CPU time of every watched process since the monitor
	// started, in ticks; base is total at the previous sample.
	total, base uint64
	// active is true when a process was watched since the previous sample.
	active bool
}

// watchedProc is one watched process and its CPU time last read.
type watchedProc struct {
	// self counts the process's own time only: boardbench's children are
	// watched on their own, and its cutime would count them twice.
	self bool
	last uint64
}

// Started implements proc.Observer: the program pid (also its process
// group) is part of the work from now on. Its CPU time is read at every
// sample, with its threads and the descendants it has reaped.
func (m *Monitor) Started(pid int) {
	m.watch(pid, false)
}

// WatchSelf counts boardbench's own process pid (its own CPU time, not its
// children's) as work: the in-process benchmarks (clock, memory) run in it.
func (m *Monitor) WatchSelf(pid int) {
	m.watch(pid, true)
}

func (m *Monitor) watch(pid int, self bool) {
	if pid <= 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.work.procs == nil {
		m.work.procs = map[int]*watchedProc{}
	}
	wp := &watchedProc{self: self}
	if self {
		// Only what it uses from now on is work.
		wp.last, _ = procTicks(m.h, pid, true)
	}
	m.work.procs[pid] = wp
	m.work.active = true
}

// Exited implements proc.Observer: the program pid has been reaped after
// using cpu (user and system time, its reaped descendants included, as
// wait4 reports it). What it used since the last sample is counted, and it
// is watched no more.
func (m *Monitor) Exited(pid int, cpu time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	wp, ok := m.work.procs[pid]
	if !ok {
		return
	}
	if t := uint64(cpu / (time.Second / userHZ)); t > wp.last {
		m.work.total += t - wp.last
	}
	delete(m.work.procs, pid)
	m.work.active = true
}

// update reads the CPU time of every watched process. A process that cannot
// be read (exiting, not yet reported by Exited) keeps its last reading.
func (a *workAccount) update(h *host.Host) {
	for pid, wp := range a.procs {
		t, ok := procTicks(h, pid, wp.self)
		if !ok || t < wp.last {
			continue
		}
		a.total += t - wp.last
		wp.last = t
	}
}

// since returns the watched processes' CPU time since the previous sample,
// in ticks; false when nothing was watched meanwhile.
func (a *workAccount) since() (uint64, bool) {
	if !a.active {
		return 0, false
	}
	return a.total - a.base, true
}

// rebase starts the next sample's interval.
func (a *workAccount) rebase() {
	a.base = a.total
	a.active = len(a.procs) > 0
}

// procTicks reads the CPU time of pid in ticks: user and system time, plus
// the time of the children it has reaped unless self.
func procTicks(h *host.Host, pid int, self bool) (uint64, bool) {
	data, err := h.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	st, ok := kernelfile.ParsePIDStat(string(data))
	if !ok || st.PID != pid {
		return 0, false
	}
	t := st.UTime + st.STime
	if !self {
		t += st.CUTime + st.CSTime
	}
	return t, true
}
