package storage

import "boardbench/internal/kernelfile"

// Mount is one place a block device's file system is mounted.
type Mount struct {
	// MountPoint is where it is mounted, e.g. "/boot/firmware".
	MountPoint string `json:"mount_point"`
	// FSType is the file system type, e.g. "ext4", "vfat", "btrfs".
	FSType string `json:"fs_type"`
}

// mountEntry is one parsed line of /proc/self/mountinfo or /proc/mounts.
type mountEntry struct {
	devno  string // "179:2"; "" from /proc/mounts
	source string // "/dev/mmcblk0p2"
	Mount
}

// mountEntries converts the kernel's mount table (mountinfo, or
// /proc/mounts without device numbers) to mount entries.
func mountEntries(ms []kernelfile.MountInfo) []mountEntry {
	out := make([]mountEntry, 0, len(ms))
	for _, m := range ms {
		out = append(out, mountEntry{devno: m.DevNo, source: m.Source,
			Mount: Mount{MountPoint: m.MountPoint, FSType: m.FSType}})
	}
	return out
}

// mountsOf returns the mounts of a block device, matched by device number
// ("8:1") or by source ("/dev/sda1", "/dev/mapper/NAME" for aliases), each
// mount point once.
func mountsOf(entries []mountEntry, devno string, sources ...string) []Mount {
	var out []Mount
	seen := map[string]bool{}
	for _, e := range entries {
		match := devno != "" && e.devno == devno
		for _, s := range sources {
			if s != "" && e.source == s {
				match = true
			}
		}
		if !match || seen[e.MountPoint] {
			continue
		}
		seen[e.MountPoint] = true
		out = append(out, e.Mount)
	}
	return out
}

// MountInfo is one line of /proc/self/mountinfo with the fields a path's
// storage is resolved from.
type MountInfo struct {
	// DevNo is the device number "MAJOR:MINOR" (0:N for filesystems
	// without a block device, and for btrfs).
	DevNo string `json:"dev_no"`
	// Root is the directory of the filesystem mounted here ("/" unless a
	// bind mount of a subdirectory).
	Root string `json:"root"`
	// MountPoint and FSType as in Mount.
	MountPoint string `json:"mount_point"`
	FSType     string `json:"fs_type"`
	// Source is the mount source, e.g. "/dev/mmcblk0p2" or "tmpfs".
	Source string `json:"source"`
	// Options are the per-mount options (rw, noatime, relatime...).
	Options []string `json:"options"`
	// SuperOptions are the filesystem's own options (commit=600,
	// discard, errors=remount-ro; for overlayfs lowerdir=, upperdir=).
	SuperOptions []string `json:"super_options"`
}

// MountInfos converts mounts of /proc/PID/mountinfo (kernelfile's parser)
// to the form a result keeps.
func MountInfos(ms []kernelfile.MountInfo) []MountInfo {
	out := make([]MountInfo, 0, len(ms))
	for _, m := range ms {
		out = append(out, MountInfo{DevNo: m.DevNo, Root: m.Root, MountPoint: m.MountPoint,
			FSType: m.FSType, Source: m.Source, Options: m.Options, SuperOptions: m.SuperOptions})
	}
	return out
}
