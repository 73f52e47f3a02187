package monitor

import (
	"context"

	"boardbench/internal/host"
	"boardbench/internal/inventory/rpi"
)

// vcgencmdFirmware asks the Raspberry Pi firmware through vcgencmd, one
// short process per question (the firmware offers no file to read), and
// parses the answers with package rpi.
type vcgencmdFirmware struct {
	h *host.Host
}

// NewVcgencmdFirmware returns the Raspberry Pi firmware of h as a Firmware,
// asked through `vcgencmd measure_clock arm`, `vcgencmd get_throttled` and
// `vcgencmd measure_volts core` (recorded outputs on a fixture root). It
// returns nil when h has no vcgencmd.
func NewVcgencmdFirmware(h *host.Host) Firmware {
	if h == nil || !h.HasCommand("vcgencmd") {
		return nil
	}
	return vcgencmdFirmware{h: h}
}

// ask runs vcgencmd with args and returns its output.
func (f vcgencmdFirmware) ask(ctx context.Context, args ...string) (string, error) {
	out, err := f.h.Run(ctx, "vcgencmd", args...)
	if err != nil {
		return "", err
	}
	return string(out), nil
}

// ClockMHz returns the ARM clock the firmware measures, in MHz.
func (f vcgencmdFirmware) ClockMHz(ctx context.Context) (float64, error) {
	out, err := f.ask(ctx, "measure_clock", "arm")
	if err != nil {
		return 0, err
	}
	return rpi.ParseClock(out)
}

// Throttled returns the firmware's get_throttled bit field.
func (f vcgencmdFirmware) Throttled(ctx context.Context) (uint32, error) {
	out, err := f.ask(ctx, "get_throttled")
	if err != nil {
		return 0, err
	}
	return rpi.ParseThrottled(out)
}

// CoreVolts returns the SoC core voltage in volts.
func (f vcgencmdFirmware) CoreVolts(ctx context.Context) (float64, error) {
	out, err := f.ask(ctx, "measure_volts", "core")
	if err != nil {
		return 0, err
	}
	return rpi.ParseVolts(out)
}
