// Package oppsel describes how a Rockchip vendor kernel chose the voltage
// tables of a chip at boot: the PVTM (process-voltage-temperature monitor)
// reading and the leakage figure each driver logged, with the voltage
// selection ("volt-sel") it derived from them. The selection decides which
// opp-microvolt-L<n> voltages, and on RK3588 which top clocks, a chip gets
// (docs/clock.md). The figures exist only in the kernel log; this package
// reads it through `dmesg` and says so when it cannot.
package oppsel

import (
	"context"
	"fmt"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
	"boardbench/internal/note"
)

// Device is one device's boot-time selection: a CPU cluster ("cpu0"), the
// memory controller ("dmc"), the GPU or NPU.
type Device struct {
	// Driver and Device are the words the kernel log names it by ("cpu"
	// and "cpu4", "rockchip-dmc" and "dmc").
	Driver string `json:"driver"`
	Device string `json:"device"`
	// CPUs are the CPUs of the cpufreq policy of a "cpu" device (its
	// related_cpus); nil for other devices or when unreadable.
	CPUs []int `json:"cpus,omitempty"`
	// PVTM is the PVTM reading (a ring-oscillator count; faster silicon
	// counts higher) and PVTMVoltSel the selection derived from it; nil
	// when not logged.
	PVTM        *int64 `json:"pvtm"`
	PVTMVoltSel *int64 `json:"pvtm_volt_sel"`
	// Leakage is the leakage figure from the chip's eFuses and
	// LeakageVoltSel the selection derived from it; nil when not logged.
	Leakage        *int64 `json:"leakage"`
	LeakageVoltSel *int64 `json:"leakage_volt_sel"`
	// OPPs is the device-tree OPP table of a "cpu" device with the
	// voltages its selection (PVTMVoltSel, else LeakageVoltSel) picks;
	// nil for other devices or when the table cannot be read (OPPsNote
	// says why).
	OPPs     []OPPVoltage `json:"opps,omitempty"`
	OPPsNote string       `json:"opps_note,omitempty"`
}

// Selection is the voltage level the device's tables are read at: the
// PVTM selection, else the leakage one; nil when neither was logged.
func (d Device) Selection() *int64 {
	if d.PVTMVoltSel != nil {
		return d.PVTMVoltSel
	}
	return d.LeakageVoltSel
}

// Info is the OPP selection of a machine (info.opp_selection).
type Info struct {
	// Source is where the figures were read ("kernel log (dmesg)").
	Source string `json:"source"`
	// Devices are in the order the log names them; nil when the kernel
	// log could not be read, empty when it holds no such line.
	Devices []Device `json:"devices"`
	// Notes say why the figures are missing.
	Notes note.List `json:"notes,omitempty"`
}

// Source names the kernel log as the figures' source.
const Source = "kernel log (dmesg)"

// maxDevices bounds the devices kept from a hostile log.
const maxDevices = 64

// Collect reads the kernel log of h and returns the selection; nil on a
// machine whose device tree does not name a Rockchip SoC (the log is not
// read there). On a Rockchip SoC an unreadable log gives Devices nil and a
// note with the reason, never a guess.
func Collect(h *host.Host) *Info {
	if !isRockchip(h) {
		// Only Rockchip's vendor kernels log the figures: the kernel log
		// (up to a megabyte) is not even read elsewhere.
		return nil
	}
	out, err := h.Run(context.Background(), "dmesg")
	if err != nil {
		in := &Info{Source: Source}
		in.Notes.Add("kernel log", unreadableReason(h, err))
		return in
	}
	return FromLog(h, out, true)
}

// FromLog builds the selection from a kernel log's text; rockchip says
// whether the machine is a Rockchip SoC (a log without the lines is then
// noted, not ignored). The CPUs of "cpu" devices are read from h.
func FromLog(h *host.Host, log []byte, rockchip bool) *Info {
	sel := kernelfile.ParseOPPSelection(log)
	in := &Info{Source: Source, Devices: []Device{}}
	if len(sel) == 0 {
		if !rockchip {
			return nil
		}
		in.Notes.Add("PVTM and leakage", "the kernel log holds no such line: only Rockchip's vendor (BSP) kernels print them, "+
			"and early boot lines are lost once the log buffer wraps")
		return in
	}
	for i, s := range sel {
		if i == maxDevices {
			in.Notes.Add("devices", fmt.Sprintf("only the first %d kept", maxDevices))
			break
		}
		d := Device{Driver: s.Driver, Device: s.Device, PVTM: s.PVTM, PVTMVoltSel: s.PVTMVoltSel, Leakage: s.Leakage, LeakageVoltSel: s.LeakageVoltSel}
		if n, ok := cpuNumber(s); ok && h != nil {
			if txt, err := h.ReadString(fmt.Sprintf("/sys/devices/system/cpu/cpu%d/cpufreq/related_cpus", n)); err == nil {
				if cpus, err := kernelfile.ParseCPUList(txt); err == nil && len(cpus) > 0 {
					d.CPUs = cpus
				}
			}
			d.OPPs, d.OPPsNote = readOPPTable(h, n, d.Selection())
		}
		in.Devices = append(in.Devices, d)
	}
	return in
}

// cpuNumber returns N of a "cpu cpuN" device.
func cpuNumber(s kernelfile.OPPSelection) (int, bool) {
	if s.Driver != "cpu" {
		return 0, false
	}
	var n int
	if _, err := fmt.Sscanf(s.Device, "cpu%d", &n); err != nil || n < 0 || n > kernelfile.MaxCPUID || fmt.Sprintf("cpu%d", n) != s.Device {
		return 0, false
	}
	return n, true
}

// ForCPU returns the selection of the "cpu" device whose CPUs include cpu
// (or which is named after it); nil when none.
func (in *Info) ForCPU(cpu int) *Device {
	if in == nil {
		return nil
	}
	for i, d := range in.Devices {
		if d.Driver != "cpu" {
			continue
		}
		if d.Device == fmt.Sprintf("cpu%d", cpu) {
			return &in.Devices[i]
		}
		for _, c := range d.CPUs {
			if c == cpu {
				return &in.Devices[i]
			}
		}
	}
	return nil
}

// isRockchip reports whether the device tree's compatible names a Rockchip
// SoC.
func isRockchip(h *host.Host) bool {
	b, err := h.ReadFile("/proc/device-tree/compatible")
	if err != nil {
		return false
	}
	for _, c := range kernelfile.ParseStringList(b) {
		if strings.HasPrefix(c, "rockchip,") {
			return true
		}
	}
	return false
}

// unreadableReason says why dmesg failed: kernel.dmesg_restrict for a user
// without the right, else dmesg's own error.
func unreadableReason(h *host.Host, err error) string {
	if r, rerr := h.ReadString("/proc/sys/kernel/dmesg_restrict"); rerr == nil && strings.TrimSpace(r) == "1" {
		return "not readable: " + note.NeedsRoot + " (kernel.dmesg_restrict is 1): " + err.Error()
	}
	return "not readable: " + err.Error()
}

// Text is one device's figures in words: "pvtm 1528 → volt-sel 5,
// leakage 10" ("unknown" parts left out).
func (d Device) Text() string {
	var parts []string
	if d.PVTM != nil || d.PVTMVoltSel != nil {
		parts = append(parts, "pvtm "+opt(d.PVTM)+" → volt-sel "+opt(d.PVTMVoltSel))
	}
	if d.Leakage != nil || d.LeakageVoltSel != nil {
		s := "leakage " + opt(d.Leakage)
		if d.LeakageVoltSel != nil {
			s += " → volt-sel " + opt(d.LeakageVoltSel)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

func opt(v *int64) string {
	if v == nil {
		return "unknown"
	}
	return fmt.Sprint(*v)
}
