package sensors

import (
	"boardbench/internal/lazyre"
	"sort"
	"strconv"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/note"
)

const hwmonDir = "/sys/class/hwmon/"

// Hwmon is one hardware monitoring device (/sys/class/hwmon/hwmonN).
type Hwmon struct {
	// Hwmon is the directory name, e.g. "hwmon0".
	Hwmon string `json:"hwmon"`
	// Name is the driver's name for the chip, e.g. "cpu_thermal",
	// "coretemp" or "ina226"; "" when not exposed.
	Name string `json:"name"`
	// Device is the machine path of the device the chip belongs to, ""
	// when there is no device link.
	Device string `json:"device"`
	// Readings has one entry per sensor, temperatures first, then voltages,
	// currents, power, energy and fans, each by index.
	Readings []Reading `json:"readings"`
}

// Reading is one hwmon sensor (temp1, in0, curr1, power1, energy1, fan1).
type Reading struct {
	// Sensor is the attribute stem, e.g. "temp1" or "in0".
	Sensor string `json:"sensor"`
	// Quantity is "temperature", "voltage", "current", "power", "energy"
	// or "fan".
	Quantity string `json:"quantity"`
	// Label is the sensor's label (e.g. "Package id 0", "vdd_cpu"), "" when
	// it has none.
	Label string `json:"label"`
	// Value is in Unit, nil when invalid or not exposed.
	Value *float64 `json:"value"`
	// Unit is "°C", "V", "A", "W", "J" or "RPM".
	Unit string `json:"unit"`
	// Max and Crit are the chip's limits in Unit, nil when not exposed.
	Max  *float64 `json:"max"`
	Crit *float64 `json:"crit"`
	// Alarms maps alarm attributes to their state, e.g. {"lcrit": false}
	// for the Raspberry Pi's under-voltage alarm.
	Alarms map[string]bool `json:"alarms,omitempty"`
	// Path is the machine path of the file the value is read from (the
	// _input file, or _average for power when there is no _input); "" when
	// the sensor exposes no value.
	Path string `json:"path"`
	// Invalid says why Value is nil although Path is set: a read error (with
	// its errno), malformed content or an implausible value.
	Invalid string `json:"invalid"`
	// Note says how the value was interpreted, or that the sensor exposes
	// alarms only.
	Note string `json:"note,omitempty"`
}

// sensorAttr matches hwmon sensor attribute file names: "temp1_input",
// "in0_lcrit_alarm", "power1_average".
var sensorAttr = lazyre.Regexp(`^(temp|in|curr|power|energy|fan)([0-9]{1,4})_([a-z_]+)$`)

// collectHwmon reads every hwmon device.
func collectHwmon(h *host.Host, in *Info) {
	names, err := h.ReadDirNames(strings.TrimSuffix(hwmonDir, "/"))
	if err != nil {
		in.Notes.Add("hwmon", note.NotExposed)
		return
	}
	for _, name := range numbered(names, "hwmon") {
		in.Hwmon = append(in.Hwmon, readHwmon(h, name))
	}
}

// sensorKey identifies a sensor within a chip.
type sensorKey struct {
	prefix string
	index  int
}

// readHwmon reads one hwmon device. Attributes live in hwmonN itself, or on
// old kernels in hwmonN/device.
func readHwmon(h *host.Host, name string) Hwmon {
	dir := hwmonDir + name
	d := Hwmon{Hwmon: name}
	if rp, err := h.Resolve(dir + "/device"); err == nil {
		d.Device = rp
	}
	attrDir := dir
	attrs := sensorAttrs(h, dir)
	if len(attrs) == 0 && d.Device != "" {
		attrDir = dir + "/device"
		attrs = sensorAttrs(h, attrDir)
	}
	if s, err := h.ReadString(dir + "/name"); err == nil {
		d.Name = s
	} else if s, err := h.ReadString(dir + "/device/name"); err == nil {
		d.Name = s
	}

	keys := make([]sensorKey, 0, len(attrs))
	for k := range attrs {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		oi, oj := prefixOrder(keys[i].prefix), prefixOrder(keys[j].prefix)
		if oi != oj {
			return oi < oj
		}
		return keys[i].index < keys[j].index
	})
	for _, k := range keys {
		d.Readings = append(d.Readings, readSensor(h, attrDir, k, attrs[k]))
	}
	return d
}

// sensorAttrs lists the sensor attributes in dir, grouped by sensor.
func sensorAttrs(h *host.Host, dir string) map[sensorKey]map[string]bool {
	out := map[sensorKey]map[string]bool{}
	names, err := h.ReadDirNames(dir)
	if err != nil {
		return out
	}
	for _, n := range names {
		m := sensorAttr.FindStringSubmatch(n)
		if m == nil {
			continue
		}
		idx, _ := strconv.Atoi(m[2])
		k := sensorKey{m[1], idx}
		if out[k] == nil {
			out[k] = map[string]bool{}
		}
		out[k][m[3]] = true
	}
	return out
}

// prefixOrder sorts sensors by quantity in display order.
func prefixOrder(prefix string) int {
	for i, q := range quantitySpecs {
		if q.spec.prefix == prefix {
			return i
		}
	}
	return len(quantitySpecs)
}

// quantityOf maps an attribute prefix to its quantity.
func quantityOf(prefix string) string {
	for _, q := range quantitySpecs {
		if q.spec.prefix == prefix {
			return q.quantity
		}
	}
	return ""
}

// readSensor reads one sensor's value, label, limits and alarms.
func readSensor(h *host.Host, dir string, k sensorKey, attrs map[string]bool) Reading {
	q := quantityOf(k.prefix)
	stem := k.prefix + strconv.Itoa(k.index)
	base := dir + "/" + stem + "_"
	r := Reading{Sensor: stem, Quantity: q, Unit: Unit(q)}
	if attrs["label"] {
		r.Label, _ = h.ReadString(base + "label")
	}
	switch {
	case attrs["input"]:
		r.Path = base + "input"
	case q == QuantityPower && attrs["average"]:
		r.Path = base + "average"
	}
	if r.Path != "" {
		if s, err := h.ReadString(r.Path); err != nil {
			r.Invalid = readFailure(err)
		} else if v, n, err := ParseValue(q, s); err != nil {
			r.Invalid = err.Error()
		} else {
			r.Value, r.Note = &v, n
		}
	}
	for _, lim := range []struct {
		attr string
		dst  **float64
	}{{"max", &r.Max}, {"crit", &r.Crit}} {
		if attrs[lim.attr] {
			if s, err := h.ReadString(base + lim.attr); err == nil {
				*lim.dst = parseLimit(q, s)
			}
		}
	}
	alarms := make([]string, 0, len(attrs))
	for a := range attrs {
		if a == "alarm" || strings.HasSuffix(a, "_alarm") {
			alarms = append(alarms, a)
		}
	}
	sort.Strings(alarms)
	for _, a := range alarms {
		s, err := h.ReadString(base + a)
		if err != nil || (s != "0" && s != "1") {
			continue
		}
		if r.Alarms == nil {
			r.Alarms = map[string]bool{}
		}
		key := strings.TrimSuffix(a, "_alarm")
		r.Alarms[key] = s == "1"
	}
	if r.Path == "" && r.Alarms != nil {
		r.Note = "exposes alarms only, no value"
	}
	return r
}
