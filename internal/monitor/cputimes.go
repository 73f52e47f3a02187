package monitor

import (
	"maps"

	"boardbench/internal/kernelfile"
)

// LastCPUTimes returns the per-CPU times of the monitor's latest reading
// of /proc/stat (in USER_HZ ticks, keyed by CPU id), as read by the
// baseline or the latest sample: nothing is read here. ok is false before
// the first reading. The map is a copy.
func (m *Monitor) LastCPUTimes() (perCPU map[int]kernelfile.CPUTimes, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.havePrev {
		return nil, false
	}
	return maps.Clone(m.prevPer), true
}
