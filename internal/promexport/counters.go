package promexport

import (
	"context"
	"fmt"
	"maps"
	"sync"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
	"boardbench/internal/monitor"
)

// Counters are the cumulative figures Prometheus rates itself: cpufreq
// time_in_state per policy (at most kernelfile.MaxTimeInStates frequencies
// each), pages swapped in and out, and the Raspberry Pi
// firmware's throttling flags. Update reads them; it is called by the
// sampling goroutine with every sample (never by a scrape), so their cost
// follows the sampling interval, not the scrape rate.
type Counters struct {
	h        *host.Host
	policies []int
	firmware monitor.Firmware

	mu  sync.Mutex
	cur counterSnapshot
}

type counterSnapshot struct {
	timeInState map[int]map[int64]float64 // policy → kHz → seconds
	// statesDropped counts, per policy, the frequencies of time_in_state
	// beyond kernelfile.MaxTimeInStates, which are not exported.
	statesDropped map[int]int
	swapIn        *uint64
	swapOut       *uint64
	throttled     *uint32
}

// NewCounters returns the counters of the machine behind h for the
// policies and firmware of cfg.
func NewCounters(h *host.Host, cfg monitor.Config) *Counters {
	c := &Counters{h: h, firmware: cfg.Firmware}
	for _, p := range cfg.Policies {
		c.policies = append(c.policies, p.ID)
	}
	return c
}

// Update reads the counters afresh. A file that cannot be read leaves its
// metric out.
func (c *Counters) Update(ctx context.Context) {
	var s counterSnapshot
	s.timeInState, s.statesDropped = map[int]map[int64]float64{}, map[int]int{}
	for _, id := range c.policies {
		data, err := c.h.ReadFile(fmt.Sprintf("/sys/devices/system/cpu/cpufreq/policy%d/stats/time_in_state", id))
		if err != nil {
			continue
		}
		states, _, dropped := kernelfile.ParseTimeInStateBounded(data, kernelfile.MaxTimeInStates)
		if dropped > 0 {
			s.statesDropped[id] = dropped
		}
		byKHz := make(map[int64]float64, len(states))
		for _, st := range states {
			byKHz[st.KHz] = float64(st.Ticks) / 100 // time_in_state counts 10 ms units
		}
		s.timeInState[id] = byKHz
	}
	if data, err := c.h.ReadFile("/proc/vmstat"); err == nil {
		vm := kernelfile.ParseVMStat(data, "pswpin", "pswpout")
		if v, ok := vm["pswpin"]; ok {
			s.swapIn = &v
		}
		if v, ok := vm["pswpout"]; ok {
			s.swapOut = &v
		}
	}
	if c.firmware != nil {
		if v, err := c.firmware.Throttled(ctx); err == nil {
			s.throttled = &v
		}
	}
	c.mu.Lock()
	c.cur = s
	c.mu.Unlock()
}

func (c *Counters) snapshot() counterSnapshot {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.cur
	s.timeInState = maps.Clone(s.timeInState)
	return s
}
