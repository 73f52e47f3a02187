package rpi

import (
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
	"boardbench/internal/note"
)

// Bootloader is the bootloader EEPROM's build (Raspberry Pi 4, 400, CM4,
// 5), as the running bootloader reports it.
type Bootloader struct {
	// BuildTime is the EEPROM image's build time (UTC); Timestamp the
	// same as seconds since 1970, the number rpi-eeprom-update prints as
	// CURRENT ("(1568112110)"). Nil when unknown.
	BuildTime *time.Time `json:"build_time"`
	Timestamp *int64     `json:"timestamp"`
	// Version is the bootloader's source revision (a git hash); "" when
	// unknown.
	Version string `json:"version"`
	// Source says where it was read: "vcgencmd bootloader_version" or
	// "device tree /chosen/bootloader".
	Source string `json:"source"`
}

// VL805 is the firmware of the VL805 USB 3 controller on the PCIe bus of
// a Raspberry Pi 4 (and 400): the figure rpi-eeprom-update shows as
// "VL805: CURRENT: 000137ab".
type VL805 struct {
	// Version is the firmware version as eight hexadecimal digits; ""
	// when unknown (Notes of the Firmware say why).
	Version string `json:"version"`
	// PCIAddress is the controller's PCI address ("0000:01:00.0").
	PCIAddress string `json:"pci_address"`
}

// BootloaderInfo is what `vcgencmd bootloader_version` says:
//
//	Sep 10 2019 10:41:50
//	version f626c772b15ba1b7e0532a8d50a761b3ccbdf3bb (release)
//	timestamp 1568112110
//
// (newer bootloaders write the date as "2020/09/03 12:11:43" and add
// update-time and capabilities lines).
type BootloaderInfo struct {
	Date      string
	Version   string
	Timestamp *int64
}

// ParseBootloaderVersion parses the output of `vcgencmd bootloader_version`.
// A timestamp of 0 (a new firmware with the first bootloader, which had no
// time stamp) is left nil; an answer with neither a version nor a
// timestamp is an error.
func ParseBootloaderVersion(out string) (BootloaderInfo, error) {
	var b BootloaderInfo
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		f := strings.Fields(line)
		switch {
		case len(f) >= 2 && f[0] == "version":
			b.Version = f[1]
		case len(f) == 2 && f[0] == "timestamp":
			if n, err := strconv.ParseInt(f[1], 10, 64); err == nil && n > 0 && n < 1<<40 {
				b.Timestamp = &n
			}
		case b.Date == "" && b.Version == "" && looksLikeDate(line):
			b.Date = line
		}
	}
	if b.Version == "" && b.Timestamp == nil {
		return b, malformed("bootloader_version", out)
	}
	return b, nil
}

// dtBootloader is the firmware's device-tree node with the bootloader's
// properties (Raspberry Pi 4 and 5 firmware).
const dtBootloader = "/proc/device-tree/chosen/bootloader"

// collectBootloader fills fw.Bootloader from vcgencmd (when asked is not
// nil: its answer, or "" when the command failed) or, failing that, from
// the device tree; a note says why it stays unknown.
func collectBootloader(h *host.Host, fw *Firmware, vc string, vcErr string) {
	if vc != "" {
		if b, err := ParseBootloaderVersion(vc); err == nil {
			fw.Bootloader = &Bootloader{Version: b.Version, Timestamp: b.Timestamp, BuildTime: unixTime(b.Timestamp), Source: "vcgencmd bootloader_version"}
			return
		} else {
			fw.Notes.Add("vcgencmd bootloader_version", note.Malformed+": "+err.Error())
		}
	}
	if b := bootloaderFromDT(h); b != nil {
		fw.Bootloader = b
		return
	}
	why := "the device tree has no " + dtBootloader + " (firmware of the Raspberry Pi 4 and 5 only)"
	if vcErr != "" {
		why = vcErr + "; " + why
	}
	fw.Notes.Add("bootloader EEPROM version", why)
}

// bootloaderFromDT reads build-timestamp and version of the firmware's
// /chosen/bootloader node; nil when neither is there.
func bootloaderFromDT(h *host.Host) *Bootloader {
	b := &Bootloader{Source: "device tree /chosen/bootloader"}
	if raw, err := h.ReadFile(path.Join(dtBootloader, "build-timestamp")); err == nil {
		if v, ok := kernelfile.ParseCell32(raw); ok && v > 0 {
			ts := int64(v)
			b.Timestamp, b.BuildTime = &ts, unixTime(&ts)
		}
	}
	if raw, err := h.ReadFile(path.Join(dtBootloader, "version")); err == nil {
		if s, ok := kernelfile.ParseString(raw); ok {
			b.Version = s
		}
	}
	if b.Timestamp == nil && b.Version == "" {
		return nil
	}
	return b
}

func unixTime(ts *int64) *time.Time {
	if ts == nil {
		return nil
	}
	t := time.Unix(*ts, 0).UTC()
	return &t
}

// VL805 PCI identity and the configuration-space word that holds its
// firmware version (what rpi-eeprom-update reads with lspci).
const (
	vl805Vendor = "0x1106"
	vl805Device = "0x3483"
	vl805Offset = 0x50
	pciDevices  = "/sys/bus/pci/devices"
	maxPCIDevs  = 64
)

// collectVL805 finds a VL805 on the PCI bus and reads its firmware
// version; nothing is added on a machine without one.
func collectVL805(h *host.Host, fw *Firmware) {
	names, err := h.ReadDirNames(pciDevices)
	if err != nil {
		return
	}
	for i, name := range names {
		if i == maxPCIDevs {
			break
		}
		dir := path.Join(pciDevices, name)
		v, _ := h.ReadString(dir + "/vendor")
		d, _ := h.ReadString(dir + "/device")
		if strings.TrimSpace(v) != vl805Vendor || strings.TrimSpace(d) != vl805Device {
			continue
		}
		vl := &VL805{PCIAddress: name}
		fw.VL805 = vl
		raw, err := h.ReadFile(dir + "/config")
		if err != nil {
			fw.Notes.Add("VL805 firmware version", "configuration space not readable: "+err.Error())
			return
		}
		word, err := kernelfile.ParsePCIConfigWord(raw, vl805Offset)
		if err != nil {
			fw.Notes.Add("VL805 firmware version", err.Error())
			return
		}
		vl.Version = fmt.Sprintf("%08x", word)
		return
	}
}

// askBootloader asks vcgencmd for the bootloader version; it returns the
// answer, or "" and the reason.
func askBootloader(h *host.Host) (string, string) {
	if !h.HasCommand("vcgencmd") {
		return "", "vcgencmd not installed"
	}
	out, err := h.Run(context.Background(), "vcgencmd", "bootloader_version")
	if err != nil {
		if msg := vcError(string(out)); msg != "" {
			return "", "vcgencmd bootloader_version: firmware error: " + msg
		}
		return "", "vcgencmd bootloader_version: " + err.Error()
	}
	return string(out), ""
}
