package infotext

import (
	"fmt"
	"strconv"
	"strings"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/devfreq"
	"boardbench/internal/textfmt"
)

// renderDevfreq writes the "Device clocks (devfreq)" section: two lines per
// devfreq device (memory controller, GPU, NPU) with its governor, current
// clock and limits, the clocks it offers and where it spent its time.
// Nothing is written when the machine has no devfreq device.
func renderDevfreq(w *textfmt.Writer, in *inventory.Info) {
	if len(in.Devfreq) == 0 {
		return
	}
	w.Section("Device clocks (devfreq)")
	for _, d := range in.Devfreq {
		w.Line("%s (%s): %s at %s, limits %s–%s", d.Name, devfreqKindText(d.Kind), textfmt.OrUnknown(d.Governor),
			textfmt.MHz(d.CurMHz), devfreqNum(d.MinMHz), textfmt.MHz(d.MaxMHz))
		w.Line("  offers %s MHz; most time since boot at %s", devfreqAvailable(d.AvailableMHz), devfreqMostTime(d))
		for _, n := range d.Notes {
			w.Line("  unknown: %s (%s)", n.Item, n.Reason)
		}
	}
}

// devfreqKindText names a device kind for the text view.
func devfreqKindText(kind string) string {
	switch kind {
	case devfreq.KindMemory:
		return "memory controller"
	case devfreq.KindGPU:
		return "GPU"
	case devfreq.KindNPU:
		return "NPU"
	}
	return kind
}

// devfreqNum formats an optional clock without its unit.
func devfreqNum(v *float64) string {
	if v == nil {
		return "unknown"
	}
	return strconv.FormatFloat(*v, 'f', 0, 64)
}

// devfreqAvailable lists the offered clocks in MHz, "unknown" when
// unread.
func devfreqAvailable(v []float64) string {
	if len(v) == 0 {
		return "unknown"
	}
	s := make([]string, len(v))
	for i, f := range v {
		s[i] = strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strings.Join(s, " ")
}

// devfreqMostTime names the clock the device spent most time at since
// boot and its share, e.g. "528 MHz (99.8 %)"; "unknown" without
// statistics.
func devfreqMostTime(d devfreq.Device) string {
	var total, best uint64
	var at float64
	for _, s := range d.TimeInState {
		total += s.TimeMs
		if s.TimeMs > best {
			best, at = s.TimeMs, s.MHz
		}
	}
	if total == 0 {
		return "unknown"
	}
	return fmt.Sprintf("%s MHz (%.1f %%)", strconv.FormatFloat(at, 'f', -1, 64), 100*float64(best)/float64(total))
}
