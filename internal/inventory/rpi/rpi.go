// Package rpi knows Raspberry Pi specifics: revision codes and the firmware's
// view of clocks, throttling and configuration through vcgencmd.
//
// The parsers (ParseThrottled, ParseClock, ParseVolts, ParseTemp,
// ParseConfig, ParseVersion) and decoders (DecodeThrottled, DecodeRevision)
// are exported so that the monitor can reuse them on its samples.
package rpi

import (
	"context"
	"fmt"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
	"boardbench/internal/note"
)

// Firmware is what the Raspberry Pi firmware reports through vcgencmd.
type Firmware struct {
	// ArmClockMHz is the ARM clock the firmware measures (measure_clock
	// arm); nil when unknown.
	ArmClockMHz *float64 `json:"arm_clock_mhz"`
	// CoreVoltageV is the SoC core voltage (measure_volts core); nil when
	// unknown.
	CoreVoltageV *float64 `json:"core_voltage_v"`
	// TempC is the SoC temperature (measure_temp); nil when unknown.
	TempC *float64 `json:"temp_c"`
	// Throttled is the decoded get_throttled word; nil when unknown.
	Throttled *Throttled `json:"throttled"`
	// Config holds every integer setting of get_config int; nil when
	// unknown.
	Config map[string]int64 `json:"config"`
	// ConfigHighlights are the settings of Config that change clocks,
	// voltages or thermal limits, with their meaning.
	ConfigHighlights []Setting `json:"config_highlights"`
	// Version is the firmware build (vcgencmd version); nil when unknown.
	Version *FirmwareVersion `json:"version"`
	// Bootloader is the bootloader EEPROM's build (vcgencmd
	// bootloader_version, else the device tree's /chosen/bootloader;
	// schema 1.3); nil when unknown (a note says why) or on boards
	// without one.
	Bootloader *Bootloader `json:"bootloader"`
	// VL805 is the USB 3 controller's firmware on a Raspberry Pi 4 (PCI
	// configuration space, needs root; schema 1.3); nil without a VL805.
	VL805 *VL805 `json:"vl805"`
	// Notes lists what could not be established and why.
	Notes note.List `json:"notes,omitempty"`
}

// Throttled is the firmware's record of under-voltage, frequency capping and
// throttling.
type Throttled struct {
	// Raw is the word as a number.
	Raw uint32 `json:"raw"`
	// Hex is the word as the firmware prints it, e.g. "0x50005".
	Hex string `json:"hex"`
	// Flags are the set bits in words, current conditions first; empty
	// when nothing was ever flagged.
	Flags []string `json:"flags"`
	// UnderVoltageNow and UnderVoltageOccurred are bits 0 and 16.
	UnderVoltageNow      bool `json:"under_voltage_now"`
	UnderVoltageOccurred bool `json:"under_voltage_occurred"`
	// ThrottledNow and ThrottledOccurred are bits 2 and 18.
	ThrottledNow      bool `json:"throttled_now"`
	ThrottledOccurred bool `json:"throttled_occurred"`
}

// NewThrottled decodes a get_throttled word.
func NewThrottled(v uint32) *Throttled {
	return &Throttled{
		Raw:                  v,
		Hex:                  fmt.Sprintf("0x%x", v),
		Flags:                DecodeThrottled(v),
		UnderVoltageNow:      v&(1<<0) != 0,
		UnderVoltageOccurred: v&(1<<16) != 0,
		ThrottledNow:         v&(1<<2) != 0,
		ThrottledOccurred:    v&(1<<18) != 0,
	}
}

// Collect asks the firmware through vcgencmd and reads the bootloader and
// VL805 versions where the system exposes them. It returns nil when
// vcgencmd is absent and the device tree has no firmware bootloader node
// (not a Raspberry Pi, or one without its firmware's interfaces). A command
// that fails or answers in an unexpected form leaves its field empty and
// adds a note.
func Collect(h *host.Host) *Firmware {
	if !h.HasCommand("vcgencmd") {
		b := bootloaderFromDT(h)
		if b == nil {
			return nil
		}
		fw := &Firmware{Bootloader: b}
		fw.Notes.Add("vcgencmd", "not installed: clocks, voltages, throttling flags and configuration unknown")
		collectVL805(h, fw)
		return fw
	}
	fw := &Firmware{}
	ctx := context.Background()
	ask := func(args ...string) (string, bool) {
		item := "vcgencmd " + strings.Join(args, " ")
		out, err := h.Run(ctx, "vcgencmd", args...)
		if err != nil {
			reason := err.Error()
			if msg := vcError(string(out)); msg != "" {
				reason = "firmware error: " + msg
			} else if strings.Contains(string(out), "VCHI initialization failed") {
				reason = "no access to the firmware interface (" + note.NeedsRoot + " or membership of group video)"
			}
			fw.Notes.Add(item, reason)
			return "", false
		}
		return string(out), true
	}
	malformedNote := func(item string, err error) {
		fw.Notes.Add(item, note.Malformed+": "+err.Error())
	}

	if out, ok := ask("measure_clock", "arm"); ok {
		if v, err := ParseClock(out); err == nil {
			fw.ArmClockMHz = &v
		} else {
			malformedNote("vcgencmd measure_clock arm", err)
		}
	}
	if out, ok := ask("get_throttled"); ok {
		if v, err := ParseThrottled(out); err == nil {
			fw.Throttled = NewThrottled(v)
		} else {
			malformedNote("vcgencmd get_throttled", err)
		}
	}
	if out, ok := ask("measure_volts", "core"); ok {
		if v, err := ParseVolts(out); err == nil {
			fw.CoreVoltageV = &v
		} else {
			malformedNote("vcgencmd measure_volts core", err)
		}
	}
	if out, ok := ask("measure_temp"); ok {
		if v, err := ParseTemp(out); err == nil {
			fw.TempC = &v
		} else {
			malformedNote("vcgencmd measure_temp", err)
		}
	}
	if out, ok := ask("get_config", "int"); ok {
		cfg, skipped := ParseConfig(out)
		if len(cfg) == 0 {
			malformedNote("vcgencmd get_config int", malformed("get_config", out))
		} else {
			fw.Config = cfg
			fw.ConfigHighlights = Highlights(cfg)
			if skipped > 0 {
				fw.Notes.Add("vcgencmd get_config int", fmt.Sprintf("%d line(s) skipped: not key=integer", skipped))
			}
		}
	}
	if out, ok := ask("version"); ok {
		if v, err := ParseVersion(out); err == nil {
			fw.Version = &v
		} else {
			malformedNote("vcgencmd version", err)
		}
	}
	if hasEEPROM(h) {
		vc, why := askBootloader(h)
		collectBootloader(h, fw, vc, why)
	}
	collectVL805(h, fw)
	return fw
}

// hasEEPROM reports whether the board boots from a bootloader EEPROM (the
// BCM2711 and BCM2712 boards: Pi 4, 400, CM4, Pi 5, 500, CM5), from the
// device tree's compatible; older boards boot from the SD card's
// bootcode.bin and have no bootloader version to report.
func hasEEPROM(h *host.Host) bool {
	raw, err := h.ReadFile("/proc/device-tree/compatible")
	if err != nil {
		return h.Exists(dtBootloader)
	}
	for _, c := range kernelfile.ParseStringList(raw) {
		if c == "brcm,bcm2711" || c == "brcm,bcm2712" {
			return true
		}
	}
	return h.Exists(dtBootloader)
}
