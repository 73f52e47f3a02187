package infotext

import (
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/oppsel"
	"boardbench/internal/textfmt"
)

// renderOPPSelection writes the "Voltage selection at boot (PVTM,
// leakage)" section: one line per device the kernel log names, with its
// CPUs, and the notes. Nothing is written where the section is absent.
func renderOPPSelection(w *textfmt.Writer, in *inventory.Info) {
	s := in.OPPSelection
	if s == nil {
		return
	}
	w.Section("Voltage selection at boot (PVTM, leakage)")
	for _, d := range s.Devices {
		name := d.Driver + " " + d.Device
		if len(d.CPUs) > 0 {
			name += " (cpus " + cpu.FormatCPUList(d.CPUs) + ")"
		}
		w.Line("%s: %s", name, d.Text())
		if len(d.OPPs) > 0 {
			w.Line("  OPP voltages (%s): %s", oppProperties(d.OPPs), oppVoltages(d.OPPs))
		} else if d.OPPsNote != "" {
			w.Line("  OPP voltages: unknown (%s)", d.OPPsNote)
		}
	}
	for _, n := range s.Notes {
		w.Line("unknown: %s (%s)", n.Item, n.Reason)
	}
	if len(s.Devices) > 0 {
		w.Line("from the %s; volt-sel n picks the opp-microvolt-L<n> voltages, 0 the highest (docs/clock.md)", strings.TrimSuffix(s.Source, "."))
	}
}

// oppProperties names the voltage properties the entries were read from.
func oppProperties(o []oppsel.OPPVoltage) string {
	var names []string
	for _, v := range o {
		if !slices.Contains(names, v.Property) {
			names = append(names, v.Property)
		}
	}
	return strings.Join(names, ", ")
}

// oppVoltages lists "408 MHz 675 mV, 600 MHz 675 mV, …".
func oppVoltages(o []oppsel.OPPVoltage) string {
	parts := make([]string, len(o))
	for i, v := range o {
		mv := "unknown"
		if v.MV != nil {
			mv = strconv.FormatFloat(*v.MV, 'f', -1, 64) + " mV"
		}
		parts[i] = strconv.FormatFloat(v.MHz, 'f', -1, 64) + " MHz " + mv
	}
	return strings.Join(parts, ", ")
}
