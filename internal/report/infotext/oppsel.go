package infotext

import (
	"strings"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
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
	}
	for _, n := range s.Notes {
		w.Line("unknown: %s (%s)", n.Item, n.Reason)
	}
	if len(s.Devices) > 0 {
		w.Line("from the %s; volt-sel n picks the opp-microvolt-L<n> voltages, 0 the highest (docs/clock.md)", strings.TrimSuffix(s.Source, "."))
	}
}
