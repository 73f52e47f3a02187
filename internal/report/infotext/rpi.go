package infotext

import (
	"fmt"
	"strconv"
	"strings"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/rpi"
	"boardbench/internal/textfmt"
)

// renderRaspberryPi writes the Raspberry Pi firmware section (only when the
// firmware was asked): the clock, voltage and temperature the firmware
// measures, the throttling flags in words, the firmware build and the
// configuration settings that change clocks, voltages or thermal limits.
func renderRaspberryPi(w *textfmt.Writer, in *inventory.Info) {
	fw := in.RaspberryPi
	if fw == nil {
		return
	}
	w.Section("Raspberry Pi firmware")
	w.KV(
		[2]string{"ARM clock (firmware)", textfmt.MHz(fw.ArmClockMHz)},
		[2]string{"core voltage", rpiFloat(fw.CoreVoltageV, "%.4f V")},
		[2]string{"SoC temperature", rpiFloat(fw.TempC, "%.1f °C")},
		[2]string{"throttling", rpiThrottled(fw.Throttled)},
		[2]string{"firmware", rpiVersion(fw.Version)},
	)
	if t := fw.Throttled; t != nil {
		if t.UnderVoltageNow {
			w.Line("warning: under-voltage right now: the power supply or its cable is too weak")
		} else if t.UnderVoltageOccurred {
			w.Line("warning: under-voltage has occurred since boot")
		}
		if t.ThrottledNow {
			w.Line("warning: the firmware is throttling the ARM cores right now")
		}
	}
	if len(fw.ConfigHighlights) > 0 {
		w.Line("Settings that change clocks, voltages or thermal limits:")
		t := textfmt.NewTable("SETTING", "VALUE", "MEANING")
		t.Wrap[2] = true
		t.RightAlign[1] = true
		for _, s := range fw.ConfigHighlights {
			t.Row(s.Key, strconv.FormatInt(s.Value, 10), s.Meaning)
		}
		w.Table(t)
	}
	if n := len(fw.Config); n > 0 {
		w.Line("%d integer settings in all; the JSON output lists every one", n)
	}
	for _, n := range fw.Notes {
		w.Line("unknown: %s (%s)", n.Item, n.Reason)
	}
}

func rpiFloat(v *float64, format string) string {
	if v == nil {
		return "unknown"
	}
	return fmt.Sprintf(format, *v)
}

func rpiThrottled(t *rpi.Throttled) string {
	if t == nil {
		return "unknown"
	}
	if len(t.Flags) == 0 {
		return t.Hex + ": never throttled, capped or under-volted since boot"
	}
	return t.Hex + ": " + strings.Join(t.Flags, ", ")
}

func rpiVersion(v *rpi.FirmwareVersion) string {
	if v == nil {
		return "unknown"
	}
	var extra []string
	if v.Date != "" {
		extra = append(extra, "built "+v.Date)
	}
	if len(v.Flavour) > 0 {
		extra = append(extra, strings.Join(v.Flavour, ", "))
	}
	s := textfmt.OrUnknown(v.Version)
	if len(extra) > 0 {
		s += " (" + strings.Join(extra, "; ") + ")"
	}
	return s
}
