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
	kv := [][2]string{
		{"ARM clock (firmware)", textfmt.MHz(fw.ArmClockMHz)},
		{"core voltage", rpiFloat(fw.CoreVoltageV, "%.4f V")},
		{"SoC temperature", rpiFloat(fw.TempC, "%.1f °C")},
		{"throttling", rpiThrottled(fw.Throttled)},
		{"firmware", rpiVersion(fw.Version)},
	}
	if b := fw.Bootloader; b != nil {
		kv = append(kv, [2]string{"bootloader EEPROM", rpiBootloader(b)})
	}
	if v := fw.VL805; v != nil {
		kv = append(kv, [2]string{"VL805 USB 3 firmware", textfmt.OrUnknown(v.Version)})
	}
	w.KV(kv...)
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

// rpiBootloader writes the bootloader EEPROM's build: "2019-09-10 10:41:50
// UTC (1568112110), version f626c772 (vcgencmd bootloader_version)".
func rpiBootloader(b *rpi.Bootloader) string {
	var parts []string
	if b.BuildTime != nil && b.Timestamp != nil {
		parts = append(parts, fmt.Sprintf("%s UTC (%d)", b.BuildTime.Format("2006-01-02 15:04:05"), *b.Timestamp))
	}
	if b.Version != "" {
		v := b.Version
		if len(v) > 12 {
			v = v[:12]
		}
		parts = append(parts, "version "+v)
	}
	if len(parts) == 0 {
		return "unknown"
	}
	return strings.Join(parts, ", ") + " (" + b.Source + ")"
}
