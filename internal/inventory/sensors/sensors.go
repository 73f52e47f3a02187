// Package sensors describes a machine's thermal and hardware-monitoring
// sensors: kernel thermal zones with their trip points, cooling devices, and
// hwmon chips with their temperature, voltage, current, power, energy and
// fan readings. It rejects readings that cannot be true instead of
// believing them, chooses the sensor boardbench uses as the SoC temperature
// (with the reason), and exports cheap single-file readers for the monitor.
package sensors

import (
	"boardbench/internal/host"
	"boardbench/internal/note"
)

// Source kinds.
const (
	KindThermalZone = "thermal_zone"
	KindHwmon       = "hwmon"
)

// Info is the Sensors section of a machine description.
type Info struct {
	// SoCTemp is the sensor boardbench uses as the SoC temperature, nil when
	// no valid temperature sensor exists (Notes says why).
	SoCTemp *SoCTemp `json:"soc_temp"`
	// ThermalZones lists /sys/class/thermal/thermal_zone* by number.
	ThermalZones []ThermalZone `json:"thermal_zones"`
	// CoolingDevices lists /sys/class/thermal/cooling_device* by number.
	CoolingDevices []CoolingDevice `json:"cooling_devices"`
	// Hwmon lists /sys/class/hwmon/hwmon* by number.
	Hwmon []Hwmon `json:"hwmon"`
	// Notes lists what could not be established and why.
	Notes note.List `json:"notes,omitempty"`
}

// Source names one sensor file a monitor can sample with ReadValue or
// ReadCelsius.
type Source struct {
	// Kind is "thermal_zone" or "hwmon".
	Kind string `json:"kind"`
	// Name is the zone type (e.g. "cpu-thermal"), or the hwmon chip name with
	// the sensor's label or stem (e.g. "coretemp Package id 0").
	Name string `json:"name"`
	// Path is the machine path of the file to read.
	Path string `json:"path"`
}

// SoCTemp is the temperature sensor chosen to stand for the SoC.
type SoCTemp struct {
	Source
	// Celsius is the temperature read while collecting.
	Celsius float64 `json:"temp_c"`
	// Reason says why this sensor was chosen and which were passed over.
	Reason string `json:"reason"`
}

// Channel is a power-related hwmon sensor (voltage, current, power or
// energy) that a monitor can sample with ReadValue(h, c.Quantity, c.Path).
type Channel struct {
	Source
	// Quantity is "voltage", "current", "power" or "energy".
	Quantity string `json:"quantity"`
	// Unit is the unit ReadValue returns: "V", "A", "W" or "J".
	Unit string `json:"unit"`
}

// Collect describes the sensors of the machine behind h. It never fails:
// what cannot be read is listed in Notes, invalid readings carry their
// reason.
func Collect(h *host.Host) Info {
	var in Info
	collectThermal(h, &in)
	collectHwmon(h, &in)
	in.SoCTemp = chooseSoCTemp(in, &in.Notes)
	return in
}

// PowerChannels lists the voltage, current, power and energy sensors of in
// whose value was valid when collected, in hwmon order. Energy channels are
// counters: a monitor derives power from their difference over time.
func PowerChannels(in Info) []Channel {
	var out []Channel
	for _, d := range in.Hwmon {
		for _, r := range d.Readings {
			switch r.Quantity {
			case QuantityVoltage, QuantityCurrent, QuantityPower, QuantityEnergy:
			default:
				continue
			}
			if r.Path == "" || r.Value == nil {
				continue
			}
			out = append(out, Channel{
				Source:   Source{Kind: KindHwmon, Name: hwmonSensorName(d, r), Path: r.Path},
				Quantity: r.Quantity,
				Unit:     r.Unit,
			})
		}
	}
	return out
}

// hwmonSensorName names a hwmon sensor for people: chip name plus label, or
// plus the sensor stem when it has no label.
func hwmonSensorName(d Hwmon, r Reading) string {
	chip := d.Name
	if chip == "" {
		chip = d.Hwmon
	}
	if r.Label != "" {
		return chip + " " + r.Label
	}
	return chip + " " + r.Sensor
}
