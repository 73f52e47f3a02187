// Package redact hides personal identifiers (MAC addresses, serial numbers,
// unique ids) in values boardbench reports and in files it captures.
package redact

import (
	"path"
	"regexp"
	"strings"
)

// Placeholder replaces a redacted serial number or id.
const Placeholder = "REDACTED"

var macRE = regexp.MustCompile(`(?i)\b([0-9a-f]{2})([:-])([0-9a-f]{2})[:-]([0-9a-f]{2})[:-][0-9a-f]{2}[:-][0-9a-f]{2}[:-][0-9a-f]{2}\b`)

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

// serialFiles are sysfs/procfs file names whose whole content is an identifier.
var serialFiles = map[string]bool{
	"serial": true, "serial-number": true, "serial_number": true,
	"product_serial": true, "board_serial": true, "chassis_serial": true,
	"product_uuid": true, "cid": true, "machine-id": true, "wwid": true,
	"eui": true, "nguid": true, "uuid": true,
}

// cpuinfoSerial matches the Serial line of /proc/cpuinfo on Raspberry Pi and others.
var cpuinfoSerial = regexp.MustCompile(`(?m)^(Serial\s*:\s*)\S+`)

// File returns data with identifiers replaced, for a machine path p. Files
// that are wholly an identifier are replaced; MAC addresses anywhere are
// masked; the Serial line of /proc/cpuinfo is replaced.
func File(p string, data []byte) []byte {
	base := path.Base(p)
	if serialFiles[base] {
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
	return []byte(MAC(s))
}
