package monitor

import (
	"context"

	"boardbench/internal/host"
	"boardbench/internal/inventory/rpi"
	"boardbench/internal/vcmailbox"
)

// The questions the monitor asks the Raspberry Pi firmware, as vcgencmd
// arguments and as the firmware's general commands.
const (
	askClock     = "measure_clock arm"
	askThrottled = "get_throttled"
	askVolts     = "measure_volts core"
)

// Firmware sources (FirmwareSource).
const (
	// SourceMailbox is the firmware's property mailbox (/dev/vcio).
	SourceMailbox = "mailbox"
	// SourceVcgencmd is one vcgencmd process per question.
	SourceVcgencmd = "vcgencmd"
)

// vcgencmdFirmware asks the Raspberry Pi firmware through vcgencmd, one
// short process per question, and parses the answers with package rpi.
// It is the fallback where the mailbox cannot be opened (mailboxFirmware).
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

// ask runs vcgencmd with the question's words and returns its output.
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
	out, err := f.ask(ctx, askThrottled)
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

// mailboxFirmware asks the firmware the same questions as vcgencmdFirmware
// through its property mailbox: the firmware's general command over the
// mailbox is what vcgencmd itself sends, so the answers are the text
// vcgencmd would print, parsed by the same functions into the same
// fields and units, without a process per question. The device is opened
// on the first question and kept open until Close (Monitor.Run closes it
// when sampling stops).
type mailboxFirmware struct {
	c *vcmailbox.Client
}

// ClockMHz returns the ARM clock the firmware measures, in MHz.
func (f mailboxFirmware) ClockMHz(context.Context) (float64, error) {
	out, err := f.c.Gencmd(askClock)
	if err != nil {
		return 0, err
	}
	return rpi.ParseClock(out)
}

// Throttled returns the firmware's get_throttled bit field.
func (f mailboxFirmware) Throttled(context.Context) (uint32, error) {
	out, err := f.c.Gencmd(askThrottled)
	if err != nil {
		return 0, err
	}
	return rpi.ParseThrottled(out)
}

// CoreVolts returns the SoC core voltage in volts.
func (f mailboxFirmware) CoreVolts(context.Context) (float64, error) {
	out, err := f.c.Gencmd(askVolts)
	if err != nil {
		return 0, err
	}
	return rpi.ParseVolts(out)
}

// Close closes the mailbox device; a later question opens it again.
func (f mailboxFirmware) Close() error { return f.c.Close() }

// NewMailboxFirmware returns the Raspberry Pi firmware asked through the
// mailbox device that open opens, or nil when it cannot be opened or the
// firmware does not answer get_throttled through it (not a Raspberry Pi,
// no permission on /dev/vcio, a firmware older than the general command
// over the mailbox). The device is closed again after that first question.
func NewMailboxFirmware(open vcmailbox.Opener) Firmware {
	c := vcmailbox.NewClient(open)
	out, err := c.Gencmd(askThrottled)
	c.Close()
	if err != nil {
		return nil
	}
	if _, err := rpi.ParseThrottled(out); err != nil {
		return nil
	}
	return mailboxFirmware{c: c}
}

// firmwareFor returns the Raspberry Pi firmware of h: through the mailbox
// that open opens when it answers (NewMailboxFirmware), else through
// vcgencmd (nil without it).
func firmwareFor(h *host.Host, open vcmailbox.Opener) Firmware {
	if fw := NewMailboxFirmware(open); fw != nil {
		return fw
	}
	return NewVcgencmdFirmware(h)
}

// hostMailbox opens h's firmware mailbox (an error on a fixture root).
func hostMailbox(h *host.Host) vcmailbox.Opener {
	if h == nil {
		return func() (vcmailbox.Device, error) { return nil, host.ErrNotLive }
	}
	return h.FirmwareMailboxOpener()
}

// FirmwareSource says how fw asks the firmware: SourceMailbox,
// SourceVcgencmd, or "" for nil or another Firmware.
func FirmwareSource(fw Firmware) string {
	switch fw.(type) {
	case mailboxFirmware:
		return SourceMailbox
	case vcgencmdFirmware:
		return SourceVcgencmd
	}
	return ""
}
