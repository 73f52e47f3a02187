package infotext

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/sensors"
	"boardbench/internal/textfmt"
)

// renderSensors writes the Sensors section: the chosen SoC temperature and
// why, thermal zones with trip points, cooling devices and hwmon readings.
func renderSensors(w *textfmt.Writer, in *inventory.Info) {
	s := in.Sensors
	w.Section("Sensors")
	// invalid collects the readings that were rejected, with the reason,
	// listed after the tables to keep the columns narrow.
	var invalid []string
	if t := s.SoCTemp; t != nil {
		w.KV(
			[2]string{"SoC temperature", fmt.Sprintf("%s from %s", sensorValue(t.Celsius, "°C"), t.Path)},
			[2]string{"chosen because", t.Reason},
		)
	} else {
		w.KV([2]string{"SoC temperature", "unknown"})
	}

	if len(s.ThermalZones) > 0 {
		w.Line("Thermal zones:")
		t := textfmt.NewTable("ZONE", "TYPE", "TEMP", "MODE", "POLICY", "TRIP POINTS")
		t.Wrap[5] = true
		t.RightAlign[2] = true
		for _, z := range s.ThermalZones {
			temp := "invalid"
			if z.TempC != nil {
				temp = sensorValue(*z.TempC, "°C")
			} else {
				invalid = append(invalid, fmt.Sprintf("%s (%s): %s", z.Name, z.Type, z.Invalid))
			}
			t.Row(strings.TrimPrefix(z.Name, "thermal_zone"), z.Type, temp, sensorDash(z.Mode), sensorDash(z.Policy), sensorTrips(z.TripPoints))
		}
		w.Table(t)
	}

	if len(s.CoolingDevices) > 0 {
		w.Line("Cooling devices:")
		t := textfmt.NewTable("DEVICE", "TYPE", "STATE")
		t.RightAlign[2] = true
		for _, c := range s.CoolingDevices {
			state := "unknown"
			if c.CurState != nil && c.MaxState != nil {
				state = fmt.Sprintf("%d of %d", *c.CurState, *c.MaxState)
			}
			t.Row(strings.TrimPrefix(c.Name, "cooling_device"), c.Type, state)
		}
		w.Table(t)
	}

	if len(s.Hwmon) > 0 {
		w.Line("Hardware monitors:")
		t := textfmt.NewTable("HWMON", "CHIP", "SENSOR", "LABEL", "VALUE", "LIMITS AND ALARMS")
		t.Wrap[3], t.Wrap[5] = true, true
		t.RightAlign[4] = true
		for _, d := range s.Hwmon {
			if len(d.Readings) == 0 {
				t.Row(d.Hwmon, d.Name, "-", "", "no sensors", "")
			}
			for _, r := range d.Readings {
				t.Row(d.Hwmon, d.Name, r.Sensor, r.Label, sensorReading(r), sensorLimits(r))
				if r.Value == nil && r.Invalid != "" {
					invalid = append(invalid, fmt.Sprintf("%s %s %s: %s", d.Hwmon, d.Name, r.Sensor, r.Invalid))
				}
			}
		}
		w.Table(t)
	}

	for _, r := range invalid {
		w.Line("invalid: %s", r)
	}
	if ch := sensors.PowerChannels(s); len(ch) == 0 && len(s.Hwmon) > 0 {
		w.Line("power sensors: none exposed")
	}
	for _, n := range s.Notes {
		w.Line("unknown: %s (%s)", n.Item, n.Reason)
	}
}

// sensorValue formats a value in its unit with a precision that suits it.
func sensorValue(v float64, unit string) string {
	switch unit {
	case "°C":
		return fmt.Sprintf("%.1f °C", v)
	case "V", "A":
		return fmt.Sprintf("%.3f %s", v, unit)
	case "W":
		return fmt.Sprintf("%.2f W", v)
	case "J":
		return fmt.Sprintf("%.1f J", v)
	case "RPM":
		return fmt.Sprintf("%.0f RPM", v)
	}
	return strconv.FormatFloat(v, 'g', 6, 64) + " " + unit
}

// sensorReading formats a hwmon reading's value, "invalid" (the reason is
// listed below the table) or "no value".
func sensorReading(r sensors.Reading) string {
	switch {
	case r.Value != nil:
		return sensorValue(*r.Value, r.Unit)
	case r.Invalid != "":
		return "invalid"
	}
	return "no value"
}

// sensorLimits formats a reading's limits and alarms, and how its value was
// interpreted when it needed interpreting.
func sensorLimits(r sensors.Reading) string {
	var parts []string
	if r.Value != nil && r.Note != "" {
		parts = append(parts, r.Note)
	}
	if r.Max != nil {
		parts = append(parts, "max "+sensorValue(*r.Max, r.Unit))
	}
	if r.Crit != nil {
		parts = append(parts, "crit "+sensorValue(*r.Crit, r.Unit))
	}
	names := make([]string, 0, len(r.Alarms))
	for a := range r.Alarms {
		names = append(names, a)
	}
	sort.Strings(names)
	for _, a := range names {
		state := "off"
		if r.Alarms[a] {
			state = "ON"
		}
		if a == "alarm" {
			parts = append(parts, "alarm "+state)
		} else {
			parts = append(parts, a+" alarm "+state)
		}
	}
	return strings.Join(parts, ", ")
}

// sensorTrips formats trip points, e.g. "passive 75.0 °C, critical 115.0 °C".
func sensorTrips(tps []sensors.TripPoint) string {
	var parts []string
	for _, tp := range tps {
		temp := "unknown"
		if tp.TempC != nil {
			temp = sensorValue(*tp.TempC, "°C")
		}
		parts = append(parts, textfmt.OrUnknown(tp.Type)+" "+temp)
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ", ")
}

// sensorDash returns s, or "-" when empty.
func sensorDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
