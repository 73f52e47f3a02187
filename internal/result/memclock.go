package result

import (
	"slices"
)

// MemClock is the memory controller's clock over a phase, from the
// samples' MemClockMHz (schema 1.2).
type MemClock struct {
	// Device names the devfreq device ("dmc"; MonitorInfo.MemClock).
	Device string `json:"device"`
	// MedianMHz, MinMHz and MaxMHz are over the samples that read it.
	MedianMHz float64 `json:"median_mhz"`
	MinMHz    float64 `json:"min_mhz"`
	MaxMHz    float64 `json:"max_mhz"`
	// Samples is how many samples read it.
	Samples int `json:"samples"`
}

// MemClockOf returns the memory clock over samples, nil when none of them
// read it. device names the devfreq device.
func MemClockOf(device string, samples []Sample) *MemClock {
	var v []float64
	for _, s := range samples {
		if s.MemClockMHz != nil {
			v = append(v, *s.MemClockMHz)
		}
	}
	if len(v) == 0 {
		return nil
	}
	slices.Sort(v)
	med := v[len(v)/2]
	if len(v)%2 == 0 {
		med = (v[len(v)/2-1] + v[len(v)/2]) / 2
	}
	return &MemClock{Device: device, MedianMHz: med, MinMHz: v[0], MaxMHz: v[len(v)-1], Samples: len(v)}
}
