package result

import "boardbench/internal/inventory/storage"

// DeviceIdentity is the storage behind a path: the result's top-level
// `device` (internal/blockdev resolves it and converts its Identity).
type DeviceIdentity struct {
	// Path is the path asked about, made absolute.
	Path string `json:"path"`
	// Raw is true when Path is a block device node itself.
	Raw bool `json:"raw"`
	// Kind is one of blockdev's Kind* constants ("sd", "emmc", "ram"...);
	// "" when unknown.
	Kind string `json:"kind"`
	// Name is the whole device's name under /sys/block, e.g. "mmcblk0".
	Name string `json:"name"`
	// Partition is the partition holding the filesystem, e.g. "mmcblk0p2";
	// "" when the filesystem sits on the whole device.
	Partition string `json:"partition"`
	// NotStorage says why measuring this path does not measure storage
	// ("tmpfs: the files live in RAM"); "" for real storage.
	NotStorage string `json:"not_storage,omitempty"`
	// Mount is the mount holding Path; nil for a raw device.
	Mount *storage.MountInfo `json:"mount"`
	// Filesystem summarises the mount options that matter for storage.
	Filesystem *DeviceFilesystem `json:"filesystem"`
	// Stack lists the layers from the filesystem down to the whole device.
	Stack []DeviceLayer `json:"stack"`
	// Block describes the whole device (model, bus, scheduler, read-ahead,
	// discard, SD/eMMC registers...); nil when there is none.
	Block *storage.Device `json:"block"`
	// CID and CSD are the SD/eMMC registers decoded; nil for other kinds.
	CID *storage.CID `json:"cid,omitempty"`
	CSD *storage.CSD `json:"csd,omitempty"`
	// BusMode is the SD/eMMC bus mode from the kernel log; nil when the
	// log does not say (or cannot be read).
	BusMode *storage.BusMode `json:"bus_mode,omitempty"`
	// HostModes are the fast modes the SD/eMMC controller's device tree
	// node declares ("SDR104", "SDR50", "DDR50", "HS200", "HS400"); empty
	// when it declares none or has no device tree node (some controllers
	// read their capabilities from the hardware instead).
	HostModes []string `json:"host_modes,omitempty"`
	// TRIM is true when the device accepts discard requests.
	TRIM *bool `json:"trim"`
	// Notes say what could not be found out.
	Notes []string `json:"notes,omitempty"`
}

// DeviceFilesystem is what the mount options say about the filesystem's writes.
type DeviceFilesystem struct {
	Type string `json:"type"`
	// Atime is "noatime", "relatime", "strictatime" or "" (the kernel's
	// default, relatime).
	Atime string `json:"atime"`
	// CommitS is ext4's commit= interval in seconds; nil when not set
	// (ext4's default is 5 s).
	CommitS *int `json:"commit_s"`
	// Discard is true with the discard mount option (online TRIM).
	Discard bool `json:"discard"`
	// ReadOnly is true for a read-only mount.
	ReadOnly bool `json:"read_only"`
}

// DeviceLayer is one level between a filesystem and the device holding it.
type DeviceLayer struct {
	// Kind is "bind", "overlay", "loop", "dm-crypt", "lvm", "dm", "md"
	// or "partition".
	Kind string `json:"kind"`
	// Device is the block device of this layer ("dm-0", "loop3"...), or
	// the directory for bind and overlay layers.
	Device string `json:"device"`
	// Detail says more: the mapper name, the backing file, the upper
	// directory.
	Detail string `json:"detail,omitempty"`
}
