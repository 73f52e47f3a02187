package rpi

import (
	"fmt"
	"strconv"
	"strings"
)

// Revision is a decoded Raspberry Pi board revision code, as found in the
// Revision line of /proc/cpuinfo or in the device tree's
// /system/linux,revision.
type Revision struct {
	// Code is the code as six (new style) or four (old style) hex digits,
	// e.g. "d04170".
	Code string `json:"code"`
	// Style is "new" (bit 23 set: the code is a bit field) or "old" (an
	// index into a fixed table of the first boards).
	Style string `json:"style"`
	// Known reports whether the code names a board type boardbench knows.
	Known bool `json:"known"`
	// Model is the board's name, e.g. "Raspberry Pi 4 Model B"; "" when
	// the type is unknown.
	Model string `json:"model"`
	// TypeCode is the new-style type field (e.g. 0x11 for the 4 Model B);
	// nil for old-style codes.
	TypeCode *int `json:"type_code"`
	// BoardRevision is the PCB revision, e.g. "1.4".
	BoardRevision string `json:"board_revision"`
	// MemoryBytes is the RAM fitted at the factory; nil when the code
	// does not tell (one old code covers two sizes) or the field is
	// unknown.
	MemoryBytes *int64 `json:"memory_bytes"`
	// Manufacturer is who built the board, e.g. "Sony UK"; "" when the
	// field is unknown.
	Manufacturer string `json:"manufacturer"`
	// Processor is the Broadcom SoC, e.g. "BCM2711"; "" when unknown.
	Processor string `json:"processor"`
	// OvervoltageAllowed, OTPProgramAllowed and OTPReadAllowed are the
	// new-style permission bits (set bit = disallowed); nil for old-style
	// codes, which do not carry them.
	OvervoltageAllowed *bool `json:"overvoltage_allowed"`
	OTPProgramAllowed  *bool `json:"otp_program_allowed"`
	OTPReadAllowed     *bool `json:"otp_read_allowed"`
	// WarrantyVoided is the warranty bit: set by the firmware once the
	// board ran with settings that void the warranty (e.g. over_voltage
	// with force_turbo).
	WarrantyVoided bool `json:"warranty_voided"`
}

// Bits of a new-style revision code.
const (
	revNewStyle      = 1 << 23
	revWarrantyOld   = 1 << 24 // warranty bit as set by older firmware
	revWarranty      = 1 << 25
	revOTPReadOff    = 1 << 29
	revOTPProgramOff = 1 << 30
	revOvervoltOff   = 1 << 31
)

// The tables below are arrays indexed by the code's field, static data
// that costs nothing when boardbench starts (a map literal is built at
// init); "" (or a zero oldStyle) marks an unused index, and the compiler
// refuses a duplicated index as it did a duplicated map key.

// boardTypes maps the new-style type field to the board's name.
var boardTypes = [...]string{
	0x00: "Raspberry Pi Model A",
	0x01: "Raspberry Pi Model B",
	0x02: "Raspberry Pi Model A+",
	0x03: "Raspberry Pi Model B+",
	0x04: "Raspberry Pi 2 Model B",
	0x05: "Raspberry Pi Alpha (prototype)",
	0x06: "Raspberry Pi Compute Module 1",
	0x08: "Raspberry Pi 3 Model B",
	0x09: "Raspberry Pi Zero",
	0x0a: "Raspberry Pi Compute Module 3",
	0x0c: "Raspberry Pi Zero W",
	0x0d: "Raspberry Pi 3 Model B+",
	0x0e: "Raspberry Pi 3 Model A+",
	0x0f: "Raspberry Pi (internal use only)",
	0x10: "Raspberry Pi Compute Module 3+",
	0x11: "Raspberry Pi 4 Model B",
	0x12: "Raspberry Pi Zero 2 W",
	0x13: "Raspberry Pi 400",
	0x14: "Raspberry Pi Compute Module 4",
	0x15: "Raspberry Pi Compute Module 4S",
	0x16: "Raspberry Pi (internal use only)",
	0x17: "Raspberry Pi 5",
	0x18: "Raspberry Pi Compute Module 5",
	0x19: "Raspberry Pi 500",
	0x1a: "Raspberry Pi Compute Module 5 Lite",
}

// manufacturers maps the new-style manufacturer field.
var manufacturers = [...]string{
	0: "Sony UK",
	1: "Egoman",
	2: "Embest",
	3: "Sony Japan",
	4: "Embest",
	5: "Stadium",
}

// processors maps the new-style processor field.
var processors = [...]string{
	0: "BCM2835",
	1: "BCM2836",
	2: "BCM2837",
	3: "BCM2711",
	4: "BCM2712",
}

// oldStyle describes one of the fixed codes of the first boards.
type oldStyle struct {
	model, revision string
	memMB           int64 // 0: the code covers more than one size
	manufacturer    string
}

// oldStyleCodes are the revision codes used before the bit-field scheme;
// every one of these boards has a BCM2835.
var oldStyleCodes = [...]oldStyle{
	0x0002: {"Raspberry Pi Model B", "1.0", 256, "Egoman"},
	0x0003: {"Raspberry Pi Model B", "1.0", 256, "Egoman"},
	0x0004: {"Raspberry Pi Model B", "2.0", 256, "Sony UK"},
	0x0005: {"Raspberry Pi Model B", "2.0", 256, "Qisda"},
	0x0006: {"Raspberry Pi Model B", "2.0", 256, "Egoman"},
	0x0007: {"Raspberry Pi Model A", "2.0", 256, "Egoman"},
	0x0008: {"Raspberry Pi Model A", "2.0", 256, "Sony UK"},
	0x0009: {"Raspberry Pi Model A", "2.0", 256, "Qisda"},
	0x000d: {"Raspberry Pi Model B", "2.0", 512, "Egoman"},
	0x000e: {"Raspberry Pi Model B", "2.0", 512, "Sony UK"},
	0x000f: {"Raspberry Pi Model B", "2.0", 512, "Egoman"},
	0x0010: {"Raspberry Pi Model B+", "1.2", 512, "Sony UK"},
	0x0011: {"Raspberry Pi Compute Module 1", "1.0", 512, "Sony UK"},
	0x0012: {"Raspberry Pi Model A+", "1.1", 256, "Sony UK"},
	0x0013: {"Raspberry Pi Model B+", "1.2", 512, "Embest"},
	0x0014: {"Raspberry Pi Compute Module 1", "1.0", 512, "Embest"},
	0x0015: {"Raspberry Pi Model A+", "1.1", 0, "Embest"}, // 256 MB or 512 MB
}

// lookup returns table[i], ok false when i is past the table's end.
func lookup[T any](table []T, i uint32) (T, bool) {
	if uint64(i) >= uint64(len(table)) {
		var zero T
		return zero, false
	}
	return table[i], true
}

// DecodeRevision decodes a Raspberry Pi revision code. Fields the code does
// not determine stay empty or nil; Known is false for codes that name no
// known board (for example the "0000" many non-Pi kernels print).
func DecodeRevision(code uint32) Revision {
	r := Revision{WarrantyVoided: code&(revWarranty|revWarrantyOld) != 0}
	if code&revNewStyle == 0 {
		r.Style = "old"
		base := code & 0xffff
		r.Code = fmt.Sprintf("%04x", base)
		o, ok := lookup(oldStyleCodes[:], base)
		if !ok || o.model == "" || code&^(revWarrantyOld|revWarranty|0xffff) != 0 {
			return r
		}
		r.Known = true
		r.Model = o.model
		r.BoardRevision = o.revision
		r.Manufacturer = o.manufacturer
		r.Processor = "BCM2835"
		if o.memMB > 0 {
			b := o.memMB << 20
			r.MemoryBytes = &b
		}
		return r
	}
	r.Style = "new"
	r.Code = fmt.Sprintf("%06x", code&0xffffff)
	typ := int(code>>4) & 0xff
	r.TypeCode = &typ
	r.BoardRevision = fmt.Sprintf("1.%d", code&0xf)
	r.Processor, _ = lookup(processors[:], (code>>12)&0xf)
	r.Manufacturer, _ = lookup(manufacturers[:], (code>>16)&0xf)
	if mem := int(code>>20) & 0x7; mem <= 6 {
		b := int64(256<<20) << mem
		r.MemoryBytes = &b
	}
	r.Model, _ = lookup(boardTypes[:], uint32(typ))
	r.Known = r.Model != ""
	ov, otpProg, otpRead := code&revOvervoltOff == 0, code&revOTPProgramOff == 0, code&revOTPReadOff == 0
	r.OvervoltageAllowed, r.OTPProgramAllowed, r.OTPReadAllowed = &ov, &otpProg, &otpRead
	return r
}

// constError is an error whose value is its text, so that a sentinel
// error is a constant: static data that costs nothing when boardbench
// starts (errors.New would run at init). errors.Is and == match it.
type constError string

func (e constError) Error() string { return string(e) }

// ErrNoRevision is returned by ParseRevision for text without a code.
const ErrNoRevision = constError("no revision code")

// ParseRevision parses a revision code as printed in /proc/cpuinfo ("a02082",
// "0010", "1000002"), with or without a "0x" prefix. Anything after the first
// field is ignored.
func ParseRevision(s string) (uint32, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return 0, ErrNoRevision
	}
	t := strings.TrimPrefix(strings.TrimPrefix(f[0], "0x"), "0X")
	v, err := strconv.ParseUint(t, 16, 32)
	if err != nil {
		return 0, fmt.Errorf("revision %q: not a hex code", truncate(f[0], 20))
	}
	return uint32(v), nil
}

// RevisionFromDT decodes the device tree's /system/linux,revision property:
// a 4-byte big-endian number.
func RevisionFromDT(b []byte) (uint32, error) {
	if len(b) != 4 {
		return 0, fmt.Errorf("linux,revision: %d bytes, want 4", len(b))
	}
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3]), nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
