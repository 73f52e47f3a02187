// Package storage describes the machine's block devices from sysfs: what
// kind of device each is (SD card, eMMC, NVMe, SATA, USB, ...), its size and
// identity, the bus it hangs off (USB driver and speed, PCIe link), its queue
// settings (I/O scheduler, read-ahead, block sizes, discard), its partitions
// and where they are mounted.
//
// Loop, RAM and zram devices are left out (the memory section covers zram);
// eMMC boot and RPMB areas are folded into their eMMC. Card bus modes and
// clocks live in debugfs, which boardbench never reads.
package storage

import (
	"boardbench/internal/lazyre"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/inventory/buses"
	"boardbench/internal/kernelfile"
	"boardbench/internal/note"
	"boardbench/internal/nvmepower"
	"boardbench/internal/redact"
)

// Info is the Storage section of a machine description.
type Info struct {
	// Devices lists the block devices by name, virtual devices last.
	Devices []Device `json:"devices"`
	// Warnings are findings worth the user's attention, one sentence each.
	Warnings []string `json:"warnings,omitempty"`
	// Notes lists what could not be established and why.
	Notes note.List `json:"notes,omitempty"`
}

// Device is one block device (a whole disk, card or flash chip).
type Device struct {
	// Name is the kernel name, e.g. "mmcblk0", "nvme0n1", "sda".
	Name string `json:"name"`
	// Kind is "SD card", "eMMC", "NVMe", "SATA", "USB", "UFS", "virtio",
	// "SCSI", "MTD", "virtual" or "other".
	Kind string `json:"kind"`
	// SysfsPath is the device's resolved sysfs directory.
	SysfsPath string `json:"sysfs_path"`
	// SizeBytes is the capacity; null when unreadable.
	SizeBytes *int64 `json:"size_bytes"`
	// Model and Vendor identify the device: the drive's model and vendor
	// strings, the card name and decoded manufacturer for SD/eMMC, the
	// device-mapper name for dm devices, the partition name for MTD.
	Model  string `json:"model"`
	Vendor string `json:"vendor"`
	// Firmware is the firmware revision (SCSI/SATA/USB "rev", NVMe
	// "firmware_rev"); "" when not exposed.
	Firmware string `json:"firmware"`
	// Serial is the serial number (NVMe, SD/eMMC), "REDACTED" with
	// redaction on; "" when not exposed.
	Serial string `json:"serial"`
	// Removable, ReadOnly and Rotational are the kernel's flags; null when
	// unreadable. USB sticks often claim to be rotational.
	Removable  *bool `json:"removable"`
	ReadOnly   *bool `json:"read_only"`
	Rotational *bool `json:"rotational"`
	// Scheduler is the active I/O scheduler ("mq-deadline", "bfq",
	// "none"); Schedulers all the offered ones.
	Scheduler  string   `json:"scheduler"`
	Schedulers []string `json:"schedulers"`
	// ReadAheadBytes is the read-ahead window (read_ahead_kb × 1024).
	ReadAheadBytes *int64 `json:"read_ahead_bytes"`
	// LogicalBlockBytes and PhysicalBlockBytes are the block sizes.
	LogicalBlockBytes  *int64 `json:"logical_block_bytes"`
	PhysicalBlockBytes *int64 `json:"physical_block_bytes"`
	// Discard is true when the device accepts discard/TRIM
	// (discard_max_bytes > 0); null when unreadable.
	Discard *bool `json:"discard"`
	// MMC describes SD cards and eMMC; null for other devices.
	MMC *MMC `json:"mmc"`
	// USB describes the USB connection of USB storage; null otherwise.
	USB *buses.USBLink `json:"usb"`
	// PCIe is the PCIe link of the controller (NVMe, SATA on a PCIe
	// controller); null otherwise.
	PCIe *buses.PCIeLink `json:"pcie"`
	// NVMePower is an NVMe drive's power management (APST, power states;
	// schema 1.2); nil for other devices.
	NVMePower *nvmepower.Info `json:"nvme_power,omitempty"`
	// MTDType is the flash type of MTD devices ("nor", "nand", ...).
	MTDType string `json:"mtd_type,omitempty"`
	// Mounts lists file systems mounted from the whole device.
	Mounts []Mount `json:"mounts"`
	// Partitions lists the partitions of the device.
	Partitions []Partition `json:"partitions"`
	// HardwarePartitions lists an eMMC's boot and RPMB areas.
	HardwarePartitions []HardwarePartition `json:"hardware_partitions,omitempty"`
}

// Partition is one partition of a block device.
type Partition struct {
	// Name is the kernel name, e.g. "mmcblk0p2".
	Name string `json:"name"`
	// Number is the partition number; null when unreadable.
	Number *int `json:"number"`
	// StartBytes and SizeBytes locate the partition; null when unreadable.
	StartBytes *int64 `json:"start_bytes"`
	SizeBytes  *int64 `json:"size_bytes"`
	// Mounts lists where the partition is mounted; empty when not mounted.
	Mounts []Mount `json:"mounts"`
}

// HardwarePartition is an eMMC boot or RPMB area, a separate block device
// to the kernel.
type HardwarePartition struct {
	// Name is the kernel name, e.g. "mmcblk1boot0".
	Name string `json:"name"`
	// SizeBytes is its capacity; null when unreadable.
	SizeBytes *int64 `json:"size_bytes"`
	// ReadOnly is the kernel's read-only flag (boot areas are usually
	// write-protected); null when unreadable.
	ReadOnly *bool `json:"read_only"`
}

const blockDir = "/sys/block"

var (
	hwPartRE   = lazyre.Regexp(`^(mmcblk[0-9]+)(boot[0-9]+|rpmb)$`)
	ataRE      = lazyre.Regexp(`^ata[0-9]+$`)
	scsiHostRE = lazyre.Regexp(`^host[0-9]+$`)
)

// Collect describes the storage of the machine behind h. It never fails:
// what cannot be read is listed in Notes. With redactIDs set, serial numbers
// and card ids are replaced.
func Collect(h *host.Host, redactIDs bool) Info {
	in := Info{Devices: []Device{}}
	names, err := h.ReadDirNames(blockDir)
	if err != nil {
		in.Notes.Add("block devices", missingReason(err))
		return in
	}
	mounts := readMounts(h, &in.Notes)
	hwParts := map[string][]HardwarePartition{}
	for _, name := range names {
		if skipped(name) {
			continue
		}
		if m := hwPartRE.FindStringSubmatch(name); m != nil {
			dir := blockDir + "/" + name
			hwParts[m[1]] = append(hwParts[m[1]], HardwarePartition{
				Name:      name,
				SizeBytes: readSectors(h, dir+"/size"),
				ReadOnly:  readBoolPtr(h, dir+"/ro"),
			})
			continue
		}
		d, keep := readDevice(h, name, mounts, redactIDs, &in.Notes)
		if keep {
			in.Devices = append(in.Devices, d)
		}
	}
	for i := range in.Devices {
		in.Devices[i].HardwarePartitions = hwParts[in.Devices[i].Name]
	}
	// Physical devices first, virtual ones (device mapper, md) after them.
	sort.SliceStable(in.Devices, func(i, j int) bool {
		return in.Devices[i].Kind != "virtual" && in.Devices[j].Kind == "virtual"
	})
	hasMMC := false
	for _, d := range in.Devices {
		in.Warnings = append(in.Warnings, warnings(d)...)
		hasMMC = hasMMC || d.MMC != nil
	}
	if hasMMC {
		in.Notes.Add("SD/eMMC bus mode and clock", "only in debugfs, which boardbench does not read")
	}
	return in
}

// missingReason says why a directory could not be listed.
func missingReason(err error) string {
	if errors.Is(err, fs.ErrNotExist) {
		return note.NotExposed
	}
	return note.Unreadable
}

// skipped reports devices left out: loop, RAM disks and zram.
func skipped(name string) bool {
	for _, p := range []string{"loop", "ram", "zram"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// readMounts reads the mount table, preferring mountinfo (it carries
// device numbers, so "/dev/root" matches too).
func readMounts(h *host.Host, notes *note.List) []mountEntry {
	ms, err := kernelfile.ReadMountTable(h)
	if err != nil {
		notes.Add("mount points", note.Unreadable)
		return nil
	}
	return mountEntries(ms)
}

// readDevice describes one block device; keep is false for devices not
// worth listing (unused virtual devices of size 0).
func readDevice(h *host.Host, name string, mounts []mountEntry, redactIDs bool, notes *note.List) (Device, bool) {
	dir := blockDir + "/" + name
	d := Device{Name: name, Mounts: []Mount{}, Partitions: []Partition{}}
	resolved, err := h.Resolve(dir)
	if err == nil {
		d.SysfsPath = resolved
	}
	d.SizeBytes = readSectors(h, dir+"/size")
	if d.SizeBytes == nil {
		notes.Add(name+" size", note.Unreadable)
	}
	isVirtual := strings.HasPrefix(resolved, "/sys/devices/virtual/")
	if isVirtual && d.SizeBytes != nil && *d.SizeBytes == 0 {
		return d, false
	}
	d.Removable = readBoolPtr(h, dir+"/removable")
	d.ReadOnly = readBoolPtr(h, dir+"/ro")
	d.Rotational = readBoolPtr(h, dir+"/queue/rotational")
	if s, err := h.ReadString(dir + "/queue/scheduler"); err == nil {
		c := kernelfile.ParseChoice(s)
		d.Scheduler, d.Schedulers = c.SelectedOrOnly(), c.Options
	}
	if kb := readInt64Ptr(h, dir+"/queue/read_ahead_kb"); kb != nil {
		v := *kb * 1024
		d.ReadAheadBytes = &v
	}
	d.LogicalBlockBytes = readInt64Ptr(h, dir+"/queue/logical_block_size")
	d.PhysicalBlockBytes = readInt64Ptr(h, dir+"/queue/physical_block_size")
	if v := readInt64Ptr(h, dir+"/queue/discard_max_bytes"); v != nil {
		b := *v > 0
		d.Discard = &b
	}

	switch {
	case strings.HasPrefix(name, "mmcblk"):
		d.MMC = readMMC(h, dir, resolved, d.SizeBytes, redactIDs)
		d.Kind = mmcKind(d.MMC.Type)
		d.Model = d.MMC.Name
		d.Vendor = d.MMC.Manufacturer
		d.Serial = readString(h, dir+"/device/serial")
	case strings.HasPrefix(name, "nvme"):
		d.Kind = "NVMe"
		d.Model = readString(h, dir+"/device/model")
		d.Serial = readString(h, dir+"/device/serial")
		d.Firmware = readString(h, dir+"/device/firmware_rev")
		d.PCIe = buses.PCIeLinkOf(h, resolved)
		if ctrl := nvmeController(name); ctrl != "" {
			d.NVMePower = nvmepower.Read(h, ctrl)
		}
		if d.PCIe == nil {
			// NVMe multipath puts the disk under a virtual subsystem;
			// the controller (nvme0 for nvme0n1) knows its PCI device.
			if ctrl := nvmeController(name); ctrl != "" {
				if rp, err := h.Resolve("/sys/class/nvme/" + ctrl + "/device"); err == nil {
					d.PCIe = buses.PCIeLinkOf(h, rp)
				}
			}
		}
	case strings.HasPrefix(name, "mtdblock"):
		d.Kind = "MTD"
		d.Model = readString(h, dir+"/device/name")
		d.MTDType = readString(h, dir+"/device/type")
	default:
		d.USB = buses.USBLinkOf(h, resolved)
		d.Kind = pathKind(name, resolved, d.USB != nil)
		if d.Kind == "SCSI" && ufsSCSIHost(h, resolved) {
			d.Kind = "UFS"
		}
		switch d.Kind {
		case "virtual":
			d.Model = readString(h, dir+"/dm/name")
			if d.Model == "" {
				d.Model = readString(h, dir+"/md/level")
			}
		case "virtio":
			// device/vendor of a virtio disk is the virtio vendor id,
			// not a drive vendor; there is no model.
		default:
			d.Vendor = readString(h, dir+"/device/vendor")
			d.Model = readString(h, dir+"/device/model")
			d.Firmware = readString(h, dir+"/device/rev")
		}
		if d.Kind == "SATA" {
			// An add-on SATA controller's PCIe link caps every disk on it.
			d.PCIe = buses.PCIeLinkOf(h, resolved)
		}
	}
	if redactIDs {
		d.Serial = redact.Serial(d.Serial)
	}

	devno := readString(h, dir+"/dev")
	sources := []string{"/dev/" + name}
	if d.Kind == "virtual" && d.Model != "" {
		sources = append(sources, "/dev/mapper/"+d.Model)
	}
	d.Mounts = orEmpty(mountsOf(mounts, devno, sources...))
	d.Partitions = readPartitions(h, name, mounts)
	return d, true
}

// mmcKind maps the kernel's MMC card type to a device kind.
func mmcKind(cardType string) string {
	switch cardType {
	case "SD":
		return "SD card"
	case "MMC":
		return "eMMC"
	case "SDIO", "SDcombo":
		return "SDIO"
	}
	return "MMC"
}

// pathKind classifies a block device from its resolved sysfs path.
func pathKind(name, resolved string, isUSB bool) string {
	if isUSB {
		return "USB"
	}
	if strings.HasPrefix(resolved, "/sys/devices/virtual/") {
		return "virtual"
	}
	comps := strings.Split(resolved, "/")
	scsi := false
	for _, c := range comps {
		switch {
		case ataRE.MatchString(c):
			return "SATA"
		case strings.HasPrefix(c, "virtio"):
			return "virtio"
		case isUFSControllerName(c):
			return "UFS"
		case scsiHostRE.MatchString(c):
			scsi = true
		}
	}
	switch {
	case strings.HasPrefix(name, "vd"):
		return "virtio"
	case scsi:
		return "SCSI"
	}
	return "other"
}

// isUFSControllerName reports whether a sysfs path component names a UFS
// host controller: a device-tree node "ufs@…", "ufshc@…" (older device
// trees) or "ufshci@…" as a platform device ("1d84000.ufs", "624000.ufshc",
// "11270000.ufshci"), or a device named after the ufshcd driver.
func isUFSControllerName(c string) bool {
	for _, suffix := range []string{".ufs", ".ufshc", ".ufshci"} {
		if strings.HasSuffix(c, suffix) {
			return true
		}
	}
	return strings.HasPrefix(c, "ufshc")
}

// ufsSCSIHost reports whether the SCSI host on a block device's resolved
// sysfs path belongs to a UFS host controller whose device name does not
// say so (PCI UFS controllers, unusual device-tree node names): the host's
// proc_name is "ufshcd", the name every UFS host driver registers, or the
// controller's driver is a UFS driver ("ufshcd-qcom", "ufshcd-pci",
// "ufs-mediatek", "exynos-ufshc", …).
func ufsSCSIHost(h *host.Host, resolved string) bool {
	comps := strings.Split(resolved, "/")
	for i, c := range comps {
		if !scsiHostRE.MatchString(c) {
			continue
		}
		if name, err := h.ReadString("/sys/class/scsi_host/" + c + "/proc_name"); err == nil && name == "ufshcd" {
			return true
		}
		if i > 1 {
			if target, err := h.Readlink(strings.Join(comps[:i], "/") + "/driver"); err == nil {
				return strings.Contains(strings.ToLower(path.Base(target)), "ufs")
			}
		}
		return false
	}
	return false
}

// nvmeController returns the controller name of an NVMe namespace
// ("nvme0n1" → "nvme0"), "" when the name does not parse.
func nvmeController(name string) string {
	rest := strings.TrimPrefix(name, "nvme")
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	if i == 0 {
		return ""
	}
	return "nvme" + rest[:i]
}

// readPartitions lists the partition subdirectories of a block device.
func readPartitions(h *host.Host, name string, mounts []mountEntry) []Partition {
	dir := blockDir + "/" + name
	out := []Partition{}
	ents, err := h.ReadDir(dir)
	if err != nil {
		return out
	}
	for _, e := range ents {
		if e.Kind != "dir" || !strings.HasPrefix(e.Name, name) {
			continue
		}
		pdir := dir + "/" + e.Name
		if !h.Exists(pdir + "/partition") {
			continue
		}
		p := Partition{Name: e.Name}
		if n := readInt64Ptr(h, pdir+"/partition"); n != nil {
			v := int(*n)
			p.Number = &v
		}
		p.StartBytes = readSectors(h, pdir+"/start")
		p.SizeBytes = readSectors(h, pdir+"/size")
		p.Mounts = orEmpty(mountsOf(mounts, readString(h, pdir+"/dev"), "/dev/"+e.Name))
		out = append(out, p)
	}
	return out
}

// warnings returns the findings for one device.
func warnings(d Device) []string {
	var out []string
	if d.USB != nil && d.USB.Driver == "usb-storage" && d.USB.SpeedMbps != nil && *d.USB.SpeedMbps >= 5000 {
		out = append(out, fmt.Sprintf("%s: USB storage via usb-storage (no UAS) at %s: expect lower throughput and much slower random I/O than with UAS",
			d.Name, buses.FormatUSBSpeed(*d.USB.SpeedMbps)))
	}
	if m := d.MMC; m != nil {
		switch m.PreEOL {
		case "warning", "urgent":
			out = append(out, fmt.Sprintf("%s: eMMC reports pre-end-of-life state %q (reserved blocks running out)", d.Name, m.PreEOL))
		}
		for i, lt := range []string{m.LifeTimeA, m.LifeTimeB} {
			if lt == "90-100%" || lt == "exceeded" {
				out = append(out, fmt.Sprintf("%s: eMMC wear estimate (type %c) is %s of its rated life", d.Name, 'A'+i, lt))
			}
		}
	}
	return out
}

func orEmpty(m []Mount) []Mount {
	if m == nil {
		return []Mount{}
	}
	return m
}

// readString returns a trimmed attribute, "" on any error.
func readString(h *host.Host, p string) string {
	s, err := h.ReadString(p)
	if err != nil {
		return ""
	}
	return s
}

// readInt64Ptr returns a non-negative decimal attribute, nil on any error.
func readInt64Ptr(h *host.Host, p string) *int64 {
	s, err := h.ReadString(p)
	if err != nil {
		return nil
	}
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil || v < 0 {
		return nil
	}
	return &v
}

// readSectors reads a size in 512-byte sectors and returns bytes.
func readSectors(h *host.Host, p string) *int64 {
	v := readInt64Ptr(h, p)
	if v == nil || *v > 1<<54 {
		return nil
	}
	b := *v * 512
	return &b
}

// readBoolPtr returns a "0"/"1" attribute, nil on any error.
func readBoolPtr(h *host.Host, p string) *bool {
	s, err := h.ReadString(p)
	if err != nil {
		return nil
	}
	var b bool
	switch s {
	case "1":
		b = true
	case "0":
	default:
		return nil
	}
	return &b
}

// DescribeDevice describes the whole block device NAME of /sys/block (e.g.
// "mmcblk0", "nvme0n1", "dm-0") the way Collect does, with its mounts,
// partitions and bus; ok is false when /sys/block/NAME does not exist.
// Package blockdev uses it for the device behind a path.
func DescribeDevice(h *host.Host, name string, redactIDs bool) (d Device, ok bool) {
	if name == "" || strings.Contains(name, "/") || !h.Exists(blockDir+"/"+name) {
		return Device{}, false
	}
	var notes note.List
	d, _ = readDevice(h, name, readMounts(h, &notes), redactIDs, &notes)
	return d, true
}
