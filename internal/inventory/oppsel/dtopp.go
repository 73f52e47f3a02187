package oppsel

import (
	"fmt"
	"math"
	"path"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
)

// OPPVoltage is one operating point of a CPU's device-tree OPP table with
// the voltage the boot-time selection gives it.
type OPPVoltage struct {
	MHz float64 `json:"mhz"`
	// MV is the target voltage in millivolts (the first cell of the
	// property Property); nil when the entry has none.
	MV *float64 `json:"mv"`
	// Property is the voltage property read: "opp-microvolt-L<n>" for the
	// selection n, or "opp-microvolt" where the table has no such level.
	Property string `json:"property"`
	// SupportedHW is the entry's opp-supported-hw cells: the kernel offers
	// the OPP only when they match the chip (its version, speed grade or,
	// on RK3588's top clocks, the selection); nil without the property.
	SupportedHW []uint32 `json:"supported_hw,omitempty"`
}

// dtBase is where the kernel shows the device tree.
const dtBase = "/sys/firmware/devicetree/base"

// maxOPPs bounds the entries read from one table.
const maxOPPs = 64

// readOPPTable reads the device-tree OPP table of cpu (through its of_node
// and operating-points-v2 phandle) with the voltages of selection sel (nil:
// the default opp-microvolt). It returns nil and the reason when the table
// cannot be found.
func readOPPTable(h *host.Host, cpu int, sel *int64) ([]OPPVoltage, string) {
	node := fmt.Sprintf("/sys/devices/system/cpu/cpu%d/of_node", cpu)
	raw, err := h.ReadFile(node + "/operating-points-v2")
	if err != nil {
		return nil, "no operating-points-v2 in the CPU's device-tree node"
	}
	ph, ok := kernelfile.ParseCell32(raw)
	if !ok {
		return nil, "operating-points-v2 is not a phandle"
	}
	table := findPhandle(h, ph)
	if table == "" {
		return nil, fmt.Sprintf("no device-tree node with phandle %#x under %s", ph, dtBase)
	}
	names, err := h.ReadDirNames(table)
	if err != nil {
		return nil, "OPP table unreadable: " + err.Error()
	}
	level := ""
	if sel != nil && *sel >= 0 && *sel < 100 {
		level = fmt.Sprintf("opp-microvolt-L%d", *sel)
	}
	var out []OPPVoltage
	for _, n := range names {
		if !strings.HasPrefix(n, "opp") || len(out) == maxOPPs {
			continue
		}
		dir := path.Join(table, n)
		hzRaw, err := h.ReadFile(dir + "/opp-hz")
		if err != nil {
			continue
		}
		hz, ok := kernelfile.ParseCellsU64(hzRaw)
		if !ok || hz == 0 || hz > 1e11 {
			continue
		}
		o := OPPVoltage{MHz: math.Round(float64(hz)/1e4) / 100, Property: "opp-microvolt"}
		if level != "" {
			if mv, ok := readMicrovolt(h, dir+"/"+level); ok {
				o.MV, o.Property = mv, level
			}
		}
		if o.MV == nil {
			o.MV, _ = readMicrovolt(h, dir+"/opp-microvolt")
		}
		if b, err := h.ReadFile(dir + "/opp-supported-hw"); err == nil {
			o.SupportedHW, _ = kernelfile.ParseCells(b)
		}
		out = append(out, o)
	}
	if len(out) == 0 {
		return nil, "the OPP table holds no opp-hz entry"
	}
	sortOPPs(out)
	return out, ""
}

// readMicrovolt reads the first cell of a voltage property in mV.
func readMicrovolt(h *host.Host, p string) (*float64, bool) {
	b, err := h.ReadFile(p)
	if err != nil {
		return nil, false
	}
	c, ok := kernelfile.ParseCells(b)
	if !ok || c[0] == 0 || c[0] > 5e6 {
		return nil, false
	}
	mv := float64(c[0]) / 1000
	return &mv, true
}

// findPhandle returns the top-level device-tree node whose phandle is ph
// (OPP tables sit at the top: "cluster0-opp-table", "opp-table-cluster0"),
// or "".
func findPhandle(h *host.Host, ph uint32) string {
	names, err := h.ReadDirNames(dtBase)
	if err != nil {
		return ""
	}
	for _, n := range names {
		if !strings.Contains(n, "opp") {
			continue
		}
		for _, prop := range []string{"phandle", "linux,phandle"} {
			if b, err := h.ReadFile(path.Join(dtBase, n, prop)); err == nil {
				if v, ok := kernelfile.ParseCell32(b); ok && v == ph {
					return path.Join(dtBase, n)
				}
			}
		}
	}
	return ""
}

// sortOPPs orders the entries by clock, then voltage (insertion sort: at
// most maxOPPs entries).
func sortOPPs(o []OPPVoltage) {
	less := func(a, b OPPVoltage) bool {
		if a.MHz != b.MHz {
			return a.MHz < b.MHz
		}
		return a.MV != nil && (b.MV == nil || *a.MV < *b.MV)
	}
	for i := 1; i < len(o); i++ {
		for j := i; j > 0 && less(o[j], o[j-1]); j-- {
			o[j], o[j-1] = o[j-1], o[j]
		}
	}
}

// VoltageAt returns the voltage of the entry at mhz (within 0.5 MHz) when
// exactly one entry has that clock; nil otherwise (several entries for
// different chips, or none).
func (d *Device) VoltageAt(mhz float64) *float64 {
	if d == nil {
		return nil
	}
	var found *float64
	n := 0
	for _, o := range d.OPPs {
		if math.Abs(o.MHz-mhz) <= 0.5 {
			found = o.MV
			n++
		}
	}
	if n != 1 {
		return nil
	}
	return found
}
