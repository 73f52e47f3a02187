package buses

import (
	"math"
	"strconv"
	"strings"
)

// ParseLinkSpeed parses a PCIe link speed attribute ("8.0 GT/s PCIe",
// "5 GT/s", "2.5 GT/s") into gigatransfers per second. "Unknown", empty or
// malformed strings give ok == false.
func ParseLinkSpeed(s string) (gts float64, ok bool) {
	s = strings.TrimSpace(s)
	i := strings.Index(s, "GT/s")
	if i <= 0 {
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s[:i]), 64)
	if err != nil || v <= 0 || math.IsInf(v, 0) || math.IsNaN(v) || v > 1e6 {
		return 0, false
	}
	return v, true
}

// LinkGeneration returns the PCIe generation (1 to 6) whose signalling rate
// is gts gigatransfers per second, or 0 for an unknown rate.
func LinkGeneration(gts float64) int {
	rates := []float64{2.5, 5, 8, 16, 32, 64}
	for i, r := range rates {
		if math.Abs(gts-r) < 0.01 {
			return i + 1
		}
	}
	return 0
}

// ParseUSBSpeed parses the speed attribute of a USB device ("1.5", "12",
// "480", "5000", "10000", "20000") into Mbit/s. Malformed or non-positive
// values give ok == false.
func ParseUSBSpeed(s string) (mbps float64, ok bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v <= 0 || math.IsInf(v, 0) || math.IsNaN(v) || v > 1e7 {
		return 0, false
	}
	return v, true
}

// USBSpeedName names a USB signalling rate in Mbit/s: "Low Speed" (1.5),
// "Full Speed" (12), "High Speed" (480), "SuperSpeed" (5000), "SuperSpeed+"
// (10000), "SuperSpeed+ 20Gbps" (20000); "" for any other rate.
func USBSpeedName(mbps float64) string {
	switch mbps {
	case 1.5:
		return "Low Speed"
	case 12:
		return "Full Speed"
	case 480:
		return "High Speed"
	case 5000:
		return "SuperSpeed"
	case 10000:
		return "SuperSpeed+"
	case 20000:
		return "SuperSpeed+ 20Gbps"
	}
	return ""
}

// FormatUSBSpeed renders a USB rate with its unit, e.g. "480 Mbit/s" or
// "1.5 Mbit/s".
func FormatUSBSpeed(mbps float64) string {
	return strconv.FormatFloat(mbps, 'f', -1, 64) + " Mbit/s"
}

// FormatLinkSpeed renders a PCIe rate with its unit, e.g. "5.0 GT/s".
func FormatLinkSpeed(gts float64) string {
	return strconv.FormatFloat(gts, 'f', 1, 64) + " GT/s"
}

// ParseHexID parses a sysfs hex identifier ("0x144d", "144d", "0x010802")
// and returns it normalised to lower case with a "0x" prefix; ok is false for
// anything that is not a hex number.
func ParseHexID(s string) (id string, value uint64, ok bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	digits := strings.TrimPrefix(s, "0x")
	if digits == "" || len(digits) > 16 {
		return "", 0, false
	}
	v, err := strconv.ParseUint(digits, 16, 64)
	if err != nil {
		return "", 0, false
	}
	return "0x" + digits, v, true
}
