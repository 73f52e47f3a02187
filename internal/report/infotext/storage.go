package infotext

import (
	"fmt"
	"strings"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/buses"
	"boardbench/internal/inventory/storage"
	"boardbench/internal/textfmt"
)

// renderStorage writes the Storage section: one row per block device (kind,
// size, model, connection, I/O scheduler), the partitions and where they are
// mounted, SD/eMMC card details, warnings and what is unknown.
func renderStorage(w *textfmt.Writer, in *inventory.Info) {
	s := in.Storage
	w.Section("Storage")
	if len(s.Devices) == 0 {
		w.Line("no block devices found")
	} else {
		t := textfmt.NewTable("DEVICE", "KIND", "SIZE", "MODEL", "CONNECTION", "SCHEDULER")
		t.Wrap[4] = true
		t.RightAlign[2] = true
		for _, d := range s.Devices {
			t.Row(d.Name, d.Kind, storageBytes(d.SizeBytes), storageModel(d), storageConnection(d), storageDash(d.Scheduler))
		}
		w.Table(t)
	}

	parts := textfmt.NewTable("PARTITION", "SIZE", "MOUNTED ON", "FILE SYSTEM")
	parts.Wrap[2] = true
	parts.RightAlign[1] = true
	for _, d := range s.Devices {
		if len(d.Mounts) > 0 {
			parts.Row(d.Name+" (whole)", storageBytes(d.SizeBytes), storageMountPoints(d.Mounts), storageFSTypes(d.Mounts))
		}
		for _, p := range d.Partitions {
			parts.Row(p.Name, storageBytes(p.SizeBytes), storageMountPoints(p.Mounts), storageFSTypes(p.Mounts))
		}
	}
	if parts.Len() > 0 {
		w.Line("Partitions:")
		w.Table(parts)
	}

	for _, d := range s.Devices {
		if d.MMC != nil {
			w.Line("%s: %s", d.Name, storageCard(d))
		}
	}
	for _, d := range s.Devices {
		if d.NVMePower != nil {
			w.Line("%s: power: %s", d.Name, d.NVMePower.Text())
		}
	}
	for _, msg := range s.Warnings {
		w.Line("warning: %s", msg)
	}
	for _, n := range s.Notes {
		w.Line("unknown: %s (%s)", n.Item, n.Reason)
	}
}

// storageModel joins vendor and model, leaving out the meaningless "ATA"
// vendor of SATA drives and a vendor the model already names.
func storageModel(d storage.Device) string {
	model := d.Model
	if d.MTDType != "" {
		model += " (" + d.MTDType + ")"
	}
	v := d.Vendor
	if v != "" && v != "ATA" && !strings.HasPrefix(strings.ToLower(model), strings.ToLower(v)) {
		model = strings.TrimSpace(v + " " + model)
	}
	return storageDash(model)
}

// storageConnection describes how a device is attached: USB speed and
// driver, PCIe link, MMC host.
func storageConnection(d storage.Device) string {
	switch {
	case d.USB != nil:
		s := "USB"
		if d.USB.SpeedMbps != nil {
			s += " " + buses.FormatUSBSpeed(*d.USB.SpeedMbps)
		}
		if d.USB.Driver != "" {
			s += ", " + d.USB.Driver
		}
		return s
	case d.PCIe != nil:
		l := d.PCIe
		s := "PCIe " + buses.FormatLink(l.CurrentGTs, l.CurrentWidth)
		if l.Downgraded != nil && *l.Downgraded {
			s += " of " + buses.FormatLink(l.MaxGTs, l.MaxWidth) + " (downgraded)"
		}
		return s
	case d.MMC != nil && d.MMC.Host != "":
		s := d.MMC.Host
		if d.MMC.Controller != "" {
			s += " (" + d.MMC.Controller + ")"
		}
		return s
	}
	return "-"
}

// storageCard summarises an SD card's or eMMC's identity and health.
func storageCard(d storage.Device) string {
	m := d.MMC
	var parts []string
	switch m.Type {
	case "SD":
		kind := "SD card"
		if m.CapacityClass != "" {
			kind = m.CapacityClass + " card"
		}
		parts = append(parts, kind)
	case "MMC":
		kind := "eMMC"
		if m.EMMCVersion != "" {
			kind += " " + m.EMMCVersion
		}
		parts = append(parts, kind)
	default:
		parts = append(parts, storageDash(m.Type)+" card")
	}
	maker := textfmt.OrUnknown(m.Manufacturer)
	var ids []string
	if m.ManfID != "" {
		ids = append(ids, "manfid "+m.ManfID)
	}
	if m.OEMID != "" {
		oem := "oemid " + m.OEMID
		if m.OEMIDText != "" {
			oem += ` "` + m.OEMIDText + `"`
		}
		ids = append(ids, oem)
	}
	if len(ids) > 0 {
		maker += " (" + strings.Join(ids, ", ") + ")"
	}
	parts = append(parts, "maker "+maker)
	if m.Date != "" {
		parts = append(parts, "made "+m.Date)
	}
	if m.HWRev != "" || m.FWRev != "" {
		parts = append(parts, fmt.Sprintf("hw/fw rev %s/%s", storageDash(m.HWRev), storageDash(m.FWRev)))
	}
	if r := m.SD.Ratings(); r != "" {
		parts = append(parts, r)
	}
	if m.LifeTimeA != "" || m.LifeTimeB != "" {
		parts = append(parts, fmt.Sprintf("wear %s (A) / %s (B)", storageDash(m.LifeTimeA), storageDash(m.LifeTimeB)))
	}
	if m.PreEOL != "" {
		parts = append(parts, "reserved blocks "+m.PreEOL)
	}
	if m.PreferredEraseBytes != nil {
		parts = append(parts, "erase unit "+textfmt.Bytes(*m.PreferredEraseBytes))
	}
	if n := len(d.HardwarePartitions); n > 0 {
		var names []string
		for _, hp := range d.HardwarePartitions {
			names = append(names, strings.TrimPrefix(hp.Name, d.Name)+" "+storageBytes(hp.SizeBytes))
		}
		parts = append(parts, "hardware partitions "+strings.Join(names, ", "))
	}
	return strings.Join(parts, ", ")
}

func storageMountPoints(ms []storage.Mount) string {
	if len(ms) == 0 {
		return "-"
	}
	var out []string
	for _, m := range ms {
		out = append(out, m.MountPoint)
	}
	return strings.Join(out, ", ")
}

func storageFSTypes(ms []storage.Mount) string {
	if len(ms) == 0 {
		return "-"
	}
	seen := map[string]bool{}
	var out []string
	for _, m := range ms {
		if !seen[m.FSType] {
			seen[m.FSType] = true
			out = append(out, m.FSType)
		}
	}
	return strings.Join(out, ", ")
}

// storageBytes formats an optional size, "unknown" when nil.
func storageBytes(v *int64) string {
	if v == nil {
		return "unknown"
	}
	return textfmt.Bytes(*v)
}

// storageDash returns s, or "-" when it is empty.
func storageDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
