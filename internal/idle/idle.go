// Package idle decides whether a machine is quiet enough to benchmark and,
// when it is not, names what keeps it busy: the processes and kernel threads
// using CPU time, from /proc/[pid]/stat differences.
package idle

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
)

// Thresholds of a quiet machine.
const (
	// MaxLoad1 is the highest 1-minute load average accepted.
	MaxLoad1 = 0.1
	// MaxCPUPct is the highest total CPU utilisation accepted over a window.
	MaxCPUPct = 2.5
)

// Process is one busy process or kernel thread.
type Process struct {
	PID    int     `json:"pid"`
	Name   string  `json:"name"`
	Kernel bool    `json:"kernel_thread"`
	CPUPct float64 `json:"cpu_pct"`
}

// State is one look at how busy the machine is.
type State struct {
	Load1 *float64 `json:"load1"`
	// CPUPct is the total utilisation over the window (all CPUs = 100%).
	CPUPct *float64 `json:"cpu_pct"`
	// Top are the busiest processes in the window, busiest first.
	Top   []Process `json:"top"`
	Quiet bool      `json:"quiet"`
}

// Reason says why the state is not quiet ("" when it is).
func (s State) Reason() string {
	if s.Quiet {
		return ""
	}
	var parts []string
	if s.Load1 != nil {
		parts = append(parts, fmt.Sprintf("load %.2f", *s.Load1))
	}
	if s.CPUPct != nil {
		parts = append(parts, fmt.Sprintf("%.1f%% CPU", *s.CPUPct))
	}
	var names []string
	for i, p := range s.Top {
		if i == 3 {
			break
		}
		kind := ""
		if p.Kernel {
			kind = " (kernel)"
		}
		names = append(names, fmt.Sprintf("%s[%d]%s %.1f%%", p.Name, p.PID, kind, p.CPUPct))
	}
	r := strings.Join(parts, ", ")
	if len(names) > 0 {
		r += "; busiest: " + strings.Join(names, ", ")
	}
	return r
}

// procTimes reads /proc/PID/stat of every process.
func procTimes(h *host.Host) map[int]kernelfile.PIDStat {
	out := map[int]kernelfile.PIDStat{}
	names, err := h.ReadDirNames("/proc")
	if err != nil {
		return out
	}
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		data, err := h.ReadFile("/proc/" + n + "/stat")
		if err != nil {
			continue
		}
		if ps, ok := kernelfile.ParsePIDStat(string(data)); ok {
			out[pid] = ps
		}
	}
	return out
}

// cpuTicks is the CPU time of a process in clock ticks, user and kernel.
func cpuTicks(p kernelfile.PIDStat) uint64 { return p.UTime + p.STime }

// Measure looks at the machine for the given window and returns its state.
func Measure(ctx context.Context, h *host.Host, window time.Duration) (State, error) {
	var st State
	stat0, err := h.ReadFile("/proc/stat")
	if err != nil {
		return st, fmt.Errorf("cannot read CPU statistics: %v", err)
	}
	procs0 := procTimes(h)
	t0 := time.Now()
	select {
	case <-ctx.Done():
		return st, ctx.Err()
	case <-time.After(window):
	}
	stat1, err := h.ReadFile("/proc/stat")
	if err != nil {
		return st, fmt.Errorf("cannot read CPU statistics: %v", err)
	}
	procs1 := procTimes(h)
	elapsed := time.Since(t0).Seconds()
	a, per, ok1 := kernelfile.ParseStat(stat0)
	b, _, ok2 := kernelfile.ParseStat(stat1)
	ncpu := len(per)
	if ncpu == 0 {
		ncpu = 1
	}
	if ok1 && ok2 {
		if sh, ok := b.SharesSince(a); ok {
			v := sh.Busy
			st.CPUPct = &v
		}
	}
	if data, err := h.ReadFile("/proc/loadavg"); err == nil {
		if v, ok := kernelfile.ParseLoadavg(data); ok {
			st.Load1 = &v
		}
	}
	const ticksPerSecond = 100 // USER_HZ on every Linux architecture boardbench supports
	for pid, p1 := range procs1 {
		p0, ok := procs0[pid]
		if !ok || cpuTicks(p1) <= cpuTicks(p0) || p1.Comm != p0.Comm {
			continue
		}
		pct := 100 * float64(cpuTicks(p1)-cpuTicks(p0)) / ticksPerSecond / elapsed / float64(ncpu)
		st.Top = append(st.Top, Process{PID: pid, Name: p1.Comm, Kernel: p1.KernelThread(), CPUPct: float64(int64(pct*10+0.5)) / 10})
	}
	sort.Slice(st.Top, func(i, j int) bool { return st.Top[i].CPUPct > st.Top[j].CPUPct })
	if len(st.Top) > 5 {
		st.Top = st.Top[:5]
	}
	st.Quiet = (st.Load1 != nil && *st.Load1 < MaxLoad1) || (st.CPUPct != nil && *st.CPUPct < MaxCPUPct)
	return st, nil
}

// Wait measures until the machine is quiet or limit has passed, calling
// report after each look with the time left. It returns the last state and
// whether the machine became quiet.
func Wait(ctx context.Context, h *host.Host, window, limit time.Duration, report func(State, time.Duration)) (State, bool, error) {
	deadline := time.Now().Add(limit)
	for {
		st, err := Measure(ctx, h, window)
		if err != nil {
			return st, false, err
		}
		left := time.Until(deadline)
		if left < 0 {
			left = 0
		}
		if report != nil {
			report(st, left)
		}
		if st.Quiet {
			return st, true, nil
		}
		if left <= 0 {
			return st, false, nil
		}
	}
}
