// Package nvmepower describes an NVMe controller's power management:
// Autonomous Power State Transition (APST) as the kernel configures it
// (nvme_core.default_ps_max_latency_us and the controller's
// power/pm_qos_latency_tolerance_us in sysfs) and, when boardbench runs as
// root on the live machine, the drive's own power state table (Identify
// Controller), whether APST is on and the current power state (Get
// Features), read with the NVMe admin ioctl.
//
// Facts used (NVMe base specification): Identify Controller byte 263 holds
// NPSS (power states supported, 0-based), byte 265 bit 0 APSTA (APST
// supported), and 32 power state descriptors of 32 bytes from byte 2048:
// maximum power (bytes 0-1, in 0.01 W, or 0.0001 W with bit 0 of byte 3),
// non-operational state (bit 1 of byte 3), entry and exit latency in
// microseconds (bytes 4-7, 8-11). The kernel lets APST enter a
// non-operational state whose entry plus exit latency is at most the
// tolerance.
package nvmepower

import (
	"encoding/binary"
	"fmt"
	"os"
	"runtime"
	"strings"
	"unsafe"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"

	"golang.org/x/sys/unix"
)

// ModuleParam is where the kernel's APST limit is.
const ModuleParam = "/sys/module/nvme_core/parameters/default_ps_max_latency_us"

// State is one power state of the drive.
type State struct {
	ID             int     `json:"id"`
	MaxPowerW      float64 `json:"max_power_w"`
	NonOperational bool    `json:"non_operational"`
	EntryLatencyUs uint32  `json:"entry_latency_us"`
	ExitLatencyUs  uint32  `json:"exit_latency_us"`
}

// TotalLatencyUs is the entry plus exit latency, what the kernel compares
// with the tolerance.
func (s State) TotalLatencyUs() int64 { return int64(s.EntryLatencyUs) + int64(s.ExitLatencyUs) }

// Info is one controller's power management.
type Info struct {
	// Controller is the controller's name ("nvme0").
	Controller string `json:"controller"`
	// DefaultPSMaxLatencyUs is nvme_core.default_ps_max_latency_us (null
	// when unreadable); LatencyToleranceUs the controller's own limit
	// (power/pm_qos_latency_tolerance_us), null when it reads "auto" or
	// "any" (ToleranceMode) or is unreadable.
	DefaultPSMaxLatencyUs *int64 `json:"default_ps_max_latency_us"`
	LatencyToleranceUs    *int64 `json:"latency_tolerance_us"`
	ToleranceMode         string `json:"tolerance_mode,omitempty"`
	// APSTSupported, APSTEnabled, CurrentState and States come from the
	// drive (root on the live machine only); null or empty otherwise, with
	// Note saying why.
	APSTSupported *bool   `json:"apst_supported"`
	APSTEnabled   *bool   `json:"apst_enabled"`
	CurrentState  *int    `json:"current_state"`
	States        []State `json:"states,omitempty"`
	Note          string  `json:"note,omitempty"`
}

// LimitUs is the latency APST may add: the controller's tolerance, else
// the module parameter; nil when neither is known.
func (i Info) LimitUs() *int64 {
	if i.LatencyToleranceUs != nil {
		return i.LatencyToleranceUs
	}
	return i.DefaultPSMaxLatencyUs
}

// Reachable are the non-operational states APST may enter under the limit
// (all of them when the limit is unknown), deepest last.
func (i Info) Reachable() []State {
	limit := i.LimitUs()
	if limit != nil && *limit == 0 {
		return nil
	}
	var out []State
	for _, s := range i.States {
		if s.NonOperational && (limit == nil || s.TotalLatencyUs() <= *limit) {
			out = append(out, s)
		}
	}
	return out
}

// ParseIDCtrl reads the power state table and APSTA from an Identify
// Controller data structure (4096 bytes); ok is false when it is short.
func ParseIDCtrl(b []byte) (states []State, apst bool, ok bool) {
	if len(b) < 4096 {
		return nil, false, false
	}
	n := int(b[263]) + 1
	for i := 0; i < n && i < 32; i++ {
		d := b[2048+32*i:]
		mp := float64(binary.LittleEndian.Uint16(d[0:]))
		if d[3]&1 != 0 {
			mp /= 10000
		} else {
			mp /= 100
		}
		states = append(states, State{ID: i, MaxPowerW: mp, NonOperational: d[3]&2 != 0,
			EntryLatencyUs: binary.LittleEndian.Uint32(d[4:]), ExitLatencyUs: binary.LittleEndian.Uint32(d[8:])})
	}
	return states, b[265]&1 != 0, true
}

// Read describes controller ctrl ("nvme0") from sysfs under h and, on the
// live machine as root, from the drive.
func Read(h *host.Host, ctrl string) *Info {
	i := &Info{Controller: ctrl}
	if data, err := h.ReadFile(ModuleParam); err == nil {
		if v, ok := kernelfile.ParseDefaultPSMaxLatency(data); ok {
			i.DefaultPSMaxLatencyUs = &v
		}
	}
	if data, err := h.ReadFile("/sys/class/nvme/" + ctrl + "/power/pm_qos_latency_tolerance_us"); err == nil {
		if t, ok := kernelfile.ParsePMQoSLatencyTolerance(data); ok {
			i.LatencyToleranceUs, i.ToleranceMode = t.Us, t.Mode
		}
	}
	if !h.Live() {
		i.Note = "the drive's power states are read only on the live machine"
		return i
	}
	if os.Geteuid() != 0 {
		i.Note = "the drive's power states need root (NVMe admin commands)"
		return i
	}
	if err := readDrive(i, "/dev/"+ctrl); err != nil {
		i.Note = "the drive's power states: " + err.Error()
	}
	return i
}

// adminCmd is the kernel's struct nvme_passthru_cmd (72 bytes).
type adminCmd struct {
	opcode      uint8
	flags       uint8
	rsvd1       uint16
	nsid        uint32
	cdw2, cdw3  uint32
	metadata    uint64
	addr        uint64
	metadataLen uint32
	dataLen     uint32
	cdw10       uint32
	cdw11       uint32
	cdw12       uint32
	cdw13       uint32
	cdw14       uint32
	cdw15       uint32
	timeoutMs   uint32
	result      uint32
}

// nvmeIoctlAdminCmd is _IOWR('N', 0x41, struct nvme_admin_cmd).
const nvmeIoctlAdminCmd = 0xC0484E41

// readDrive sends Identify Controller and Get Features (power management,
// APST) to the controller's character device.
func readDrive(i *Info, dev string) error {
	f, err := os.OpenFile(dev, os.O_RDONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return fmt.Errorf("%s is not a character device", dev)
	}
	admin := func(c *adminCmd) error {
		c.timeoutMs = 2000
		_, _, errno := unix.Syscall(unix.SYS_IOCTL, f.Fd(), nvmeIoctlAdminCmd, uintptr(unsafe.Pointer(c)))
		if errno != 0 {
			return errno
		}
		return nil
	}
	buf := make([]byte, 4096)
	id := adminCmd{opcode: 0x06, addr: uint64(uintptr(unsafe.Pointer(&buf[0]))), dataLen: 4096, cdw10: 1}
	err = admin(&id)
	runtime.KeepAlive(buf)
	if err != nil {
		return fmt.Errorf("identify controller: %w", err)
	}
	states, apst, ok := ParseIDCtrl(buf)
	if !ok {
		return fmt.Errorf("identify controller: short data")
	}
	i.States, i.APSTSupported = states, &apst
	ps := adminCmd{opcode: 0x0A, cdw10: 0x02}
	if admin(&ps) == nil {
		cur := int(ps.result & 0x1f)
		i.CurrentState = &cur
	}
	if apst {
		ap := adminCmd{opcode: 0x0A, cdw10: 0x0C}
		if admin(&ap) == nil {
			on := ap.result&1 != 0
			i.APSTEnabled = &on
		}
	}
	return nil
}

// Text describes the power management in one line ("unknown" for what is
// not known).
func (i Info) Text() string {
	var parts []string
	switch {
	case i.APSTEnabled != nil && *i.APSTEnabled:
		parts = append(parts, "APST on")
	case i.APSTEnabled != nil:
		parts = append(parts, "APST off")
	case i.APSTSupported != nil && !*i.APSTSupported:
		parts = append(parts, "APST not supported")
	default:
		parts = append(parts, "APST unknown")
	}
	switch {
	case i.LatencyToleranceUs != nil:
		parts = append(parts, fmt.Sprintf("latency limit %d µs (power/pm_qos_latency_tolerance_us)", *i.LatencyToleranceUs))
	case i.DefaultPSMaxLatencyUs != nil:
		parts = append(parts, fmt.Sprintf("latency limit %d µs (nvme_core.default_ps_max_latency_us)", *i.DefaultPSMaxLatencyUs))
	default:
		parts = append(parts, "latency limit unknown")
	}
	if i.CurrentState != nil {
		parts = append(parts, fmt.Sprintf("current state PS%d", *i.CurrentState))
	}
	if len(i.States) > 0 {
		var st []string
		for _, s := range i.States {
			d := fmt.Sprintf("PS%d %.4g W", s.ID, s.MaxPowerW)
			if s.NonOperational {
				d += fmt.Sprintf(" idle, %d+%d µs", s.EntryLatencyUs, s.ExitLatencyUs)
			}
			st = append(st, d)
		}
		parts = append(parts, "states: "+strings.Join(st, "; "))
	} else {
		parts = append(parts, "power states unknown")
	}
	return strings.Join(parts, ", ")
}
