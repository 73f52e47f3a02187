// Package redact hides personal identifiers (MAC addresses, serial numbers,
// unique ids) in values boardbench reports and in files it captures.
package redact

import (
	"boardbench/internal/lazyre"
	"path"
	"strings"
)

// Placeholder replaces a redacted serial number or id.
const Placeholder = "REDACTED"

var macRE = lazyre.Regexp(`(?i)\b([0-9a-f]{2})([:-])([0-9a-f]{2})[:-]([0-9a-f]{2})[:-][0-9a-f]{2}[:-][0-9a-f]{2}[:-][0-9a-f]{2}\b`)

// MAC keeps the vendor part (first three octets) of every MAC address in s and
// replaces the rest, e.g. "dc:a6:32:12:34:56" → "dc:a6:32:xx:xx:xx".
func MAC(s string) string {
	return macRE.ReplaceAllStringFunc(s, func(m string) string {
		sep := string(m[2])
		return strings.ToLower(m[:8]) + sep + "xx" + sep + "xx" + sep + "xx"
	})
}

// Serial returns the placeholder for a non-empty serial number.
func Serial(s string) string {
	if strings.TrimSpace(s) == "" {
		return s
	}
	return Placeholder
}

// serialFile reports the sysfs/procfs file names whose whole content is an
// identifier. (A switch, not a map literal, so that it costs nothing when
// boardbench starts.)
func serialFile(name string) bool {
	switch name {
	case "serial", "serial-number", "serial_number",
		"product_serial", "board_serial", "chassis_serial",
		"product_uuid", "cid", "machine-id", "wwid",
		"eui", "nguid", "uuid":
		return true
	}
	return false
}

// cpuinfoSerial matches the Serial line of /proc/cpuinfo on Raspberry Pi and others.
var cpuinfoSerial = lazyre.Regexp(`(?m)^(Serial\s*:\s*)\S+`)

// serialLabel matches a label followed by a serial number on the same line:
// "usb 1-1: SerialNumber: 0123", "Serial Number: 0123", "S/N: 0123". The
// value is replaced when it looks like an identifier (see identifier).
var serialLabel = lazyre.Regexp(`(?i)\b(serial[ _-]?(?:number|no\.?|num)?|s/n)([ \t]*[:=][ \t]*)([^\s,;)]+)([\s,;)]|$)`)

// serialParam matches a key=value setting whose key names a serial number,
// as on the kernel command line: "serial=", "bcm2708.serial=",
// "androidboot.serialno=", "snum=", "sn=".
var serialParam = lazyre.Regexp(`(?i)\b((?:[a-z0-9_-]+\.)*(?:serial(?:[_-]?(?:no|num|number))?|snum|sn))=("[^"\n]*"|[^\s,;"]+)`)

// usbSerial matches the iSerial line of `lsusb -v`: string index, then the
// string, which is the serial number.
var usbSerial = lazyre.Regexp(`(?m)^([ \t]*iSerial[ \t]+[0-9]+[ \t]+)(\S.*)$`)

// identifier is what a labelled value must look like to be redacted, so
// that "Serial: 8250/16550 driver" in a kernel log stays readable.
var identifier = lazyre.Regexp(`^[0-9A-Za-z][0-9A-Za-z_.:-]*$`)

// otpRow matches a row of `vcgencmd otp_dump`: "28:0123abcd".
var otpRow = lazyre.Regexp(`(?m)^([0-9]{2}):([0-9a-fA-F]{8})$`)

// otpSecretRow reports whether a Raspberry Pi OTP row holds an identifier
// or a secret: 28 and 29 (serial number and its complement), 36 and above
// (customer values, private keys, MAC address).
func otpSecretRow(row string) bool { return row == "28" || row == "29" || row >= "36" }

// Text returns s with every MAC address masked (see MAC) and every serial
// number it can recognise replaced: labelled ("SerialNumber: X"), as a
// setting ("bcm2708.serial=X", "androidboot.serialno=X") and in `lsusb -v`
// ("iSerial 3 X"). It is meant for kernel logs, kernel command lines and
// command outputs.
func Text(s string) string {
	s = serialLabel.ReplaceAllStringFunc(s, func(m string) string {
		g := serialLabel.FindStringSubmatch(m)
		if !identifier.MatchString(g[3]) {
			return m
		}
		return g[1] + g[2] + Placeholder + g[4]
	})
	s = serialParam.ReplaceAllString(s, "${1}="+Placeholder)
	s = usbSerial.ReplaceAllString(s, "${1}"+Placeholder)
	return MAC(s)
}

// File returns data with identifiers replaced, for a machine path p (a file
// or, under host.CommandsDir, a recorded command output). Files that are
// wholly an identifier are replaced; the rows of `vcgencmd otp_dump` that
// hold the serial number, keys or MAC are replaced; everything else goes
// through Text.
//
// A USB root hub's serial (in a device directory named usbN) is the host
// controller's name, e.g. "xhci-hcd.0", not an identifier: it is kept.
func File(p string, data []byte) []byte {
	base := path.Base(p)
	if serialFile(base) && !rootHub.MatchString(path.Base(path.Dir(p))) {
		if len(strings.TrimSpace(string(data))) == 0 {
			return data
		}
		// Device-tree strings end with NUL; keep the terminator.
		if strings.HasSuffix(string(data), "\x00") {
			return []byte(Placeholder + "\x00")
		}
		return []byte(Placeholder + "\n")
	}
	s := string(data)
	if p == "/proc/cpuinfo" {
		s = cpuinfoSerial.ReplaceAllString(s, "${1}"+Placeholder)
	}
	if strings.HasPrefix(base, "vcgencmd_otp_dump") {
		s = otpRow.ReplaceAllStringFunc(s, func(m string) string {
			if row := m[:2]; otpSecretRow(row) {
				return row + ":" + Placeholder
			}
			return m
		})
	}
	return []byte(Text(s))
}

// rootHub matches the sysfs device directory of a USB root hub.
var rootHub = lazyre.Regexp(`^usb[0-9]+$`)
