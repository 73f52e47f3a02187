package sensors

import (
	"sort"
	"strconv"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/note"
)

const thermalDir = "/sys/class/thermal/"

// ThermalZone is one kernel thermal zone (/sys/class/thermal/thermal_zoneN).
type ThermalZone struct {
	// Name is the directory name, e.g. "thermal_zone0".
	Name string `json:"name"`
	// Type is what the zone measures, e.g. "cpu-thermal" or "x86_pkg_temp".
	Type string `json:"type"`
	// Path is the machine path of the temperature file.
	Path string `json:"path"`
	// TempC is the temperature, nil when the reading is invalid.
	TempC *float64 `json:"temp_c"`
	// Invalid says why TempC is nil: a read error (with its errno), malformed
	// content or an implausible value. "" when TempC is set.
	Invalid string `json:"invalid"`
	// Note says how the value was interpreted when it needed interpreting.
	Note string `json:"note,omitempty"`
	// Mode is "enabled" or "disabled", "" when not exposed.
	Mode string `json:"mode"`
	// Policy is the thermal governor, e.g. "step_wise", "" when not exposed.
	Policy string `json:"policy"`
	// TripPoints are the zone's trip points in index order.
	TripPoints []TripPoint `json:"trip_points"`
}

// TripPoint is a temperature at which the kernel acts on a thermal zone.
type TripPoint struct {
	Index int `json:"index"`
	// Type is "active", "passive", "hot" or "critical".
	Type string `json:"type"`
	// TempC and HystC are nil when unreadable or nonsensical.
	TempC *float64 `json:"temp_c"`
	HystC *float64 `json:"hyst_c"`
}

// CoolingDevice is a fan, a clock limiter or another cooling device.
type CoolingDevice struct {
	// Name is the directory name, e.g. "cooling_device0".
	Name string `json:"name"`
	// Type is e.g. "pwm-fan", "cpufreq-cpu0" or "Processor".
	Type string `json:"type"`
	// CurState and MaxState are the cooling level and its maximum, nil when
	// unreadable.
	CurState *int64 `json:"cur_state"`
	MaxState *int64 `json:"max_state"`
}

// numbered returns the names in dir that are prefix followed by a number,
// sorted by that number.
func numbered(names []string, prefix string) []string {
	type item struct {
		name string
		n    int
	}
	var items []item
	for _, name := range names {
		rest, ok := strings.CutPrefix(name, prefix)
		if !ok {
			continue
		}
		n, err := strconv.Atoi(rest)
		if err != nil || n < 0 || strconv.Itoa(n) != rest {
			continue
		}
		items = append(items, item{name, n})
	}
	sort.Slice(items, func(i, j int) bool { return items[i].n < items[j].n })
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = it.name
	}
	return out
}

// collectThermal reads every thermal zone and cooling device.
func collectThermal(h *host.Host, in *Info) {
	names, err := h.ReadDirNames(strings.TrimSuffix(thermalDir, "/"))
	if err != nil {
		in.Notes.Add("thermal zones", note.NotExposed)
		return
	}
	for _, name := range numbered(names, "thermal_zone") {
		in.ThermalZones = append(in.ThermalZones, readZone(h, name))
	}
	for _, name := range numbered(names, "cooling_device") {
		dir := thermalDir + name + "/"
		c := CoolingDevice{Name: name}
		c.Type, _ = h.ReadString(dir + "type")
		if v, err := h.ReadInt(dir + "cur_state"); err == nil {
			c.CurState = &v
		}
		if v, err := h.ReadInt(dir + "max_state"); err == nil {
			c.MaxState = &v
		}
		in.CoolingDevices = append(in.CoolingDevices, c)
	}
}

// readZone reads one thermal zone directory.
func readZone(h *host.Host, name string) ThermalZone {
	dir := thermalDir + name + "/"
	z := ThermalZone{Name: name, Path: dir + "temp"}
	z.Type, _ = h.ReadString(dir + "type")
	z.Mode, _ = h.ReadString(dir + "mode")
	z.Policy, _ = h.ReadString(dir + "policy")
	if s, err := h.ReadString(z.Path); err != nil {
		z.Invalid = readFailure(err)
	} else if v, n, err := ParseValue(QuantityTemperature, s); err != nil {
		z.Invalid = err.Error()
	} else {
		z.TempC, z.Note = &v, n
	}
	entries, _ := h.ReadDirNames(strings.TrimSuffix(dir, "/"))
	var trips []int
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e, "trip_point_")
		if !ok {
			continue
		}
		num, ok := strings.CutSuffix(rest, "_type")
		if !ok {
			continue
		}
		if k, err := strconv.Atoi(num); err == nil && k >= 0 && strconv.Itoa(k) == num {
			trips = append(trips, k)
		}
	}
	sort.Ints(trips)
	for _, k := range trips {
		p := dir + "trip_point_" + strconv.Itoa(k) + "_"
		tp := TripPoint{Index: k}
		tp.Type, _ = h.ReadString(p + "type")
		if s, err := h.ReadString(p + "temp"); err == nil {
			tp.TempC = tripTemp(s)
		}
		if s, err := h.ReadString(p + "hyst"); err == nil {
			tp.HystC = tripTemp(s)
		}
		z.TripPoints = append(z.TripPoints, tp)
	}
	return z
}

// tripTemp converts a trip point temperature (m°C); disabled trips report
// sentinels such as INT_MAX, which become nil.
func tripTemp(s string) *float64 {
	raw, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || sentinel(raw) || raw < -273150 || raw > 1000000 {
		return nil
	}
	v := float64(raw) / 1000
	return &v
}
