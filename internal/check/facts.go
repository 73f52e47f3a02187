package check

import (
	"strings"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/memory"
	"boardbench/internal/inventory/sensors"
)

// FactsFromInfo fills the facts that come from the machine description and
// the online CPUs at the start and end (before and after, nil when
// unknown): NCPU (the CPUs in before, or when that is unknown the CPUs the
// description does not know to be offline), the governors of the cpufreq
// policies, swap, Raspberry Pi and thermal facts. The caller adds what it
// measured (Tuned, Clusters, SevenZip) and may replace Governors.
func FactsFromInfo(in *inventory.Info, before, after []int) Facts {
	f := Facts{
		NCPU:         len(before),
		Governors:    map[int]string{},
		OnlineBefore: before,
		OnlineAfter:  after,
	}
	if before == nil {
		for _, c := range in.CPU.CPUs {
			if c.Online == nil || *c.Online {
				f.NCPU++
			}
		}
	}
	for _, p := range in.CPU.Policies {
		if p.Governor != "" {
			f.Governors[p.ID] = p.Governor
		}
	}
	if z := in.Memory.Zswap; z != nil && z.Enabled != nil {
		f.ZswapEnabled = *z.Enabled
	}
	for _, z := range in.Memory.Zram {
		if z.Swap {
			f.ZramSwapActive = true
		}
	}
	for _, s := range in.Memory.Swaps {
		if s.Kind == memory.KindZram {
			f.ZramSwapActive = true
		}
	}
	if r := in.Board.RaspberryPi; r != nil && r.Model != "" {
		f.RPiModel = r.Model
	} else if strings.HasPrefix(in.Board.Model, "Raspberry Pi") {
		f.RPiModel = in.Board.Model
	}
	if fw := in.RaspberryPi; fw != nil {
		if v, ok := fw.Config["temp_soft_limit"]; ok {
			n := int(v)
			f.TempSoftLimit = &n
		}
	}
	f.Trips = socTrips(in.Sensors)
	f.VM = in.VM.IsVM != nil && *in.VM.IsVM
	if f.VM {
		f.Hypervisor = in.VM.Hypervisor
		if c := in.VM.Cloud; c != "" {
			f.Hypervisor = strings.TrimPrefix(f.Hypervisor+" on "+c, " on ")
		}
	}
	return f
}

// socTrips returns the trip points of the thermal zone chosen as the SoC
// temperature (none when the SoC temperature comes from hwmon).
func socTrips(s sensors.Info) []Trip {
	st := s.SoCTemp
	if st == nil || st.Kind != sensors.KindThermalZone {
		return nil
	}
	var out []Trip
	for _, z := range s.ThermalZones {
		if z.Path != st.Path {
			continue
		}
		for _, t := range z.TripPoints {
			if t.TempC != nil {
				out = append(out, Trip{Type: t.Type, C: *t.TempC})
			}
		}
	}
	return out
}
