package monitor

import (
	"strings"

	"boardbench/internal/check"
	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/sensors"
)

// onlineCPUs reads the kernel's list of online CPUs; nil when unreadable.
func onlineCPUs(h *host.Host) []int {
	s, err := h.ReadString("/sys/devices/system/cpu/online")
	if err != nil {
		return nil
	}
	list, err := cpu.ParseCPUList(s)
	if err != nil || len(list) == 0 {
		return nil
	}
	return list
}

// factsFor fills what the validation rules need to know about the machine
// from its description and the online CPUs at start and end (nil when
// unknown).
func factsFor(in *inventory.Info, before, after []int) check.Facts {
	f := check.Facts{
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
		if s.Kind == "zram" {
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
	return f
}

// socTrips returns the trip points of the thermal zone chosen as the SoC
// temperature (none when the SoC temperature comes from hwmon).
func socTrips(s sensors.Info) []check.Trip {
	st := s.SoCTemp
	if st == nil || st.Kind != sensors.KindThermalZone {
		return nil
	}
	var out []check.Trip
	for _, z := range s.ThermalZones {
		if z.Path != st.Path {
			continue
		}
		for _, t := range z.TripPoints {
			if t.TempC != nil {
				out = append(out, check.Trip{Type: t.Type, C: *t.TempC})
			}
		}
	}
	return out
}
