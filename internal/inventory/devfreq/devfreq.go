// Package devfreq describes the devfreq devices of a machine
// (/sys/class/devfreq): the memory controller (dmc), GPU, NPU and others
// whose clock the kernel scales, with their current, lowest and highest
// clocks, the clocks they offer, their governor and the time spent at each
// clock since boot.
package devfreq

import (
	"errors"
	"io/fs"
	"path"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/inventory/memory"
	"boardbench/internal/kernelfile"
	"boardbench/internal/note"
)

// Kinds of device, from the device's name.
const (
	KindMemory = "memory"
	KindGPU    = "gpu"
	KindNPU    = "npu"
	KindOther  = "other"
)

// Dir holds one directory per devfreq device.
const Dir = "/sys/class/devfreq"

// maxDevices bounds the devices read on a hostile root.
const maxDevices = 32

// maxStates bounds the frequencies kept per device.
const maxStates = 64

// Device is one devfreq device.
type Device struct {
	// Name is the device's directory name ("dmc", "fb000000.gpu").
	Name string `json:"name"`
	// Kind is "memory" (the memory controller), "gpu", "npu" or "other",
	// from the name.
	Kind string `json:"kind"`
	// Governor is the devfreq governor ("dmc_ondemand", "performance");
	// "" when unreadable.
	Governor string `json:"governor"`
	// AvailableGovernors lists available_governors; nil when unreadable.
	AvailableGovernors []string `json:"available_governors"`
	// CurMHz, MinMHz and MaxMHz are cur_freq, min_freq and max_freq (the
	// limits in force) in MHz; nil when unreadable.
	CurMHz *float64 `json:"cur_mhz"`
	MinMHz *float64 `json:"min_mhz"`
	MaxMHz *float64 `json:"max_mhz"`
	// AvailableMHz are available_frequencies in MHz, in the order the
	// kernel writes them; nil when unreadable.
	AvailableMHz []float64 `json:"available_mhz"`
	// TimeInState is trans_stat's time per clock since boot; nil when the
	// kernel keeps no statistics or they are unreadable.
	TimeInState []State `json:"time_in_state"`
	// Transitions is trans_stat's "Total transition" count; nil when
	// unknown.
	Transitions *uint64 `json:"transitions"`
	// Notes say what could not be read and why.
	Notes note.List `json:"notes,omitempty"`
}

// State is the time a device spent at one clock.
type State struct {
	MHz    float64 `json:"mhz"`
	TimeMs uint64  `json:"time_ms"`
}

// Kind classifies a devfreq device by its name.
func Kind(name string) string {
	n := strings.ToLower(name)
	switch {
	case memory.IsMemoryDevfreq(name):
		return KindMemory
	case strings.Contains(n, "gpu") || strings.Contains(n, "mali") || strings.Contains(n, "g3d"):
		return KindGPU
	case strings.Contains(n, "npu"):
		return KindNPU
	}
	return KindOther
}

// TopMHz returns the highest available clock; false when none is known.
func (d Device) TopMHz() (float64, bool) {
	var top float64
	for _, v := range d.AvailableMHz {
		top = max(top, v)
	}
	return top, top > 0
}

// Collect reads every devfreq device; nil when the machine has none (or
// no /sys/class/devfreq).
func Collect(h *host.Host) []Device {
	names, _ := h.ReadDirNames(Dir)
	var out []Device
	for _, n := range names {
		if len(out) >= maxDevices {
			break
		}
		out = append(out, collectOne(h, n))
	}
	return out
}

func collectOne(h *host.Host, name string) Device {
	dir := path.Join(Dir, name)
	d := Device{Name: name, Kind: Kind(name)}
	if g, err := h.ReadString(dir + "/governor"); err == nil {
		d.Governor = g
	} else {
		d.Notes.Add("governor", reason(err))
	}
	if s, err := h.ReadString(dir + "/available_governors"); err == nil {
		d.AvailableGovernors = kernelfile.ParseAvailable(s)
	}
	d.CurMHz = readMHz(h, dir+"/cur_freq", &d.Notes)
	d.MinMHz = readMHz(h, dir+"/min_freq", &d.Notes)
	d.MaxMHz = readMHz(h, dir+"/max_freq", &d.Notes)
	if s, err := h.ReadString(dir + "/available_frequencies"); err == nil {
		for _, hz := range kernelfile.ParseFrequencies(s) {
			if len(d.AvailableMHz) < maxStates {
				d.AvailableMHz = append(d.AvailableMHz, float64(hz)/1e6)
			}
		}
	} else {
		d.Notes.Add("available_frequencies", reason(err))
	}
	if s, err := h.ReadString(dir + "/trans_stat"); err == nil {
		ts, perr := kernelfile.ParseDevfreqTransStat(s)
		switch {
		case errors.Is(perr, kernelfile.ErrNotSupported):
			d.Notes.Add("time_in_state", "the kernel keeps no statistics for this device")
		case perr != nil:
			d.Notes.Add("time_in_state", "trans_stat unreadable: "+perr.Error())
		default:
			for _, st := range ts.States {
				if len(d.TimeInState) < maxStates {
					d.TimeInState = append(d.TimeInState, State{MHz: float64(st.Hz) / 1e6, TimeMs: st.TimeMs})
				}
			}
			d.Transitions = ts.Total
		}
	}
	return d
}

// readMHz reads a devfreq frequency (Hz) as MHz; nil with a note when the
// file is unreadable or not a plausible clock.
func readMHz(h *host.Host, p string, notes *note.List) *float64 {
	s, err := h.ReadString(p)
	if err != nil {
		notes.Add(path.Base(p), reason(err))
		return nil
	}
	f := kernelfile.ParseFrequencies(s)
	if len(f) != 1 || f[0] > 1e12 {
		notes.Add(path.Base(p), note.Malformed)
		return nil
	}
	mhz := float64(f[0]) / 1e6
	return &mhz
}

// reason says why a file could not be read, in the words of the notes.
func reason(err error) string {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return note.NotExposed
	case errors.Is(err, fs.ErrPermission):
		return note.NeedsRoot
	}
	return note.Unreadable
}
