package memory

import (
	"path"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
)

// Disk kinds, the kind of whole disk a swap area lives on.
const (
	DiskSD      = "sd"   // SD card (mmcblk with device/type "SD")
	DiskEMMC    = "emmc" // eMMC (mmcblk with device/type "MMC")
	DiskMMC     = "mmc"  // MMC block device whose type is not exposed
	DiskNVMe    = "nvme"
	DiskUSB     = "usb"  // SCSI disk behind a USB bridge
	DiskSATA    = "sata" // SCSI disk behind an ATA host
	DiskSCSI    = "scsi" // other SCSI disk (SAS, UFS, unknown bridge)
	DiskVirtio  = "virtio"
	DiskXen     = "xen"
	DiskZram    = "zram"
	DiskLoop    = "loop"
	DiskMTD     = "mtd"
	DiskNBD     = "nbd"
	DiskMD      = "md" // software RAID whose members are unknown
	DiskDM      = "dm" // device mapper whose members are unknown
	DiskUnknown = "unknown"
)

// BlockDevice is the block device a swap area lives on and the disk beneath.
type BlockDevice struct {
	// Name is the kernel name, e.g. "mmcblk0p2", "nvme0n1p3" or "dm-0".
	Name string `json:"name"`
	// Disk is the whole disk beneath, e.g. "mmcblk0". For device mapper and
	// software RAID devices it is the first member's disk.
	Disk string `json:"disk"`
	// DiskKind classifies Disk: "sd", "emmc", "mmc", "nvme", "usb", "sata",
	// "scsi", "virtio", "xen", "zram", "loop", "mtd", "nbd", "md", "dm" or
	// "unknown".
	DiskKind string `json:"disk_kind"`
	// Via lists the stacked devices between Name and Disk, e.g. ["dm-0"]
	// for an encrypted root.
	Via []string `json:"via,omitempty"`
}

// mount is one mounted file system (DevNo is "" when read from
// /proc/mounts).
type mount = kernelfile.MountInfo

// mountTable is the list of mounts in mount order, or the error that kept
// it from being read.
type mountTable struct {
	mounts []mount
	err    error
}

// readMounts reads /proc/self/mountinfo, or /proc/mounts when mountinfo is
// unavailable. The error is kept for the callers that need the table.
func readMounts(h *host.Host) mountTable {
	ms, err := kernelfile.ReadMountTable(h)
	return mountTable{mounts: ms, err: err}
}

// holding returns the mount whose mount point is the longest prefix (by
// whole path components) of file; among equal mount points the last one
// wins, as it hides the earlier ones.
func (t mountTable) holding(file string) (mount, bool) {
	file = path.Clean(file)
	best, found := mount{}, false
	for _, m := range t.mounts {
		mp := path.Clean(m.MountPoint)
		if !strings.HasPrefix(mp, "/") || !underMount(file, mp) {
			continue
		}
		if !found || len(mp) >= len(path.Clean(best.MountPoint)) {
			best, found = m, true
		}
	}
	return best, found
}

func underMount(file, mp string) bool {
	if mp == "/" {
		return strings.HasPrefix(file, "/")
	}
	return file == mp || strings.HasPrefix(file, mp+"/")
}

// mountedOn returns the mount point of the first mount whose source is dev
// ("/dev/zram1"), or "".
func (t mountTable) mountedOn(dev string) string {
	for _, m := range t.mounts {
		if m.Source == dev {
			return m.MountPoint
		}
	}
	return ""
}

// deviceByPath maps a device path such as "/dev/nvme0n1p3" to its kernel
// block device name, or "" when no such block device is known.
func deviceByPath(h *host.Host, devPath string) string {
	if !strings.HasPrefix(devPath, "/dev/") {
		return ""
	}
	name := path.Base(devPath)
	if name == "" || name == "." || name == "/" {
		return ""
	}
	if h.Exists("/sys/class/block/" + name) {
		return name
	}
	// /dev/mapper/<name> names a device-mapper device.
	if strings.HasPrefix(devPath, "/dev/mapper/") {
		if names, err := h.ReadDirNames("/sys/class/block"); err == nil {
			for _, n := range names {
				if strings.HasPrefix(n, "dm-") {
					if s, err := h.ReadString("/sys/class/block/" + n + "/dm/name"); err == nil && s == name {
						return n
					}
				}
			}
		}
	}
	return ""
}

// deviceOfMount finds the block device of a mounted file system: by its
// source when that names a block device, otherwise by the device number
// from mountinfo ("/dev/root" on many boards).
func deviceOfMount(h *host.Host, m mount) string {
	if dev := deviceByPath(h, m.Source); dev != "" {
		return dev
	}
	if m.DevNo == "" || strings.HasPrefix(m.DevNo, "0:") {
		return "" // no device, or an anonymous one (btrfs subvolume, tmpfs)
	}
	names, err := h.ReadDirNames("/sys/class/block")
	if err != nil {
		return ""
	}
	for _, n := range names {
		if s, err := h.ReadString("/sys/class/block/" + n + "/dev"); err == nil && s == m.DevNo {
			return n
		}
	}
	return ""
}

// maxStackDepth bounds the walk through stacked devices (dm on md on ...).
const maxStackDepth = 4

// describeDevice finds the disk beneath a block device and its kind.
func describeDevice(h *host.Host, name string) *BlockDevice {
	d := &BlockDevice{Name: name}
	cur := name
	for depth := 0; ; depth++ {
		disk := diskOf(h, cur)
		kind := diskKind(h, disk)
		if (kind != DiskDM && kind != DiskMD) || depth >= maxStackDepth {
			d.Disk, d.DiskKind = disk, kind
			return d
		}
		slaves, err := h.ReadDirNames("/sys/class/block/" + disk + "/slaves")
		if err != nil || len(slaves) == 0 {
			d.Disk, d.DiskKind = disk, kind
			return d
		}
		d.Via = append(d.Via, disk)
		cur = slaves[0]
	}
}

// diskOf returns the whole disk of a block device: itself for a disk, the
// parent for a partition.
func diskOf(h *host.Host, name string) string {
	if !h.Exists("/sys/class/block/" + name + "/partition") {
		return name
	}
	if rp, err := h.Resolve("/sys/class/block/" + name); err == nil && path.Base(rp) == name {
		parent := path.Base(path.Dir(rp))
		if parent != "block" && parent != "." && parent != "/" {
			return parent
		}
	}
	return trimPartition(name)
}

// trimPartition derives a disk name from a partition name when sysfs links
// do not tell: "mmcblk0p2" → "mmcblk0", "nvme0n1p3" → "nvme0n1", "sda5" → "sda".
func trimPartition(name string) string {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	if i == len(name) || i == 0 {
		return name
	}
	stem := name[:i]
	if strings.HasSuffix(stem, "p") && len(stem) > 1 && stem[len(stem)-2] >= '0' && stem[len(stem)-2] <= '9' {
		return stem[:len(stem)-1]
	}
	for _, p := range []string{"sd", "vd", "hd", "xvd"} {
		if strings.HasPrefix(stem, p) {
			return stem
		}
	}
	return name
}

// diskKind classifies a whole disk by its name and sysfs.
func diskKind(h *host.Host, disk string) string {
	switch {
	case strings.HasPrefix(disk, "mmcblk"):
		t, _ := h.ReadString("/sys/class/block/" + disk + "/device/type")
		switch t {
		case "SD":
			return DiskSD
		case "MMC":
			return DiskEMMC
		}
		return DiskMMC
	case strings.HasPrefix(disk, "nvme"):
		return DiskNVMe
	case strings.HasPrefix(disk, "sd"):
		rp, err := h.Resolve("/sys/class/block/" + disk)
		switch {
		case err != nil:
			return DiskSCSI
		case strings.Contains(rp, "/usb"):
			return DiskUSB
		case strings.Contains(rp, "/ata"):
			return DiskSATA
		}
		return DiskSCSI
	case strings.HasPrefix(disk, "vd"):
		return DiskVirtio
	case strings.HasPrefix(disk, "xvd"):
		return DiskXen
	case strings.HasPrefix(disk, "zram"):
		return DiskZram
	case strings.HasPrefix(disk, "loop"):
		return DiskLoop
	case strings.HasPrefix(disk, "mtdblock"):
		return DiskMTD
	case strings.HasPrefix(disk, "nbd"):
		return DiskNBD
	case strings.HasPrefix(disk, "md"):
		return DiskMD
	case strings.HasPrefix(disk, "dm-"):
		return DiskDM
	}
	return DiskUnknown
}

// diskKindText names a disk kind for people.
func diskKindText(kind string) string {
	switch kind {
	case DiskSD:
		return "an SD card"
	case DiskEMMC:
		return "eMMC"
	case DiskMMC:
		return "an MMC device (SD card or eMMC)"
	}
	return kind
}
