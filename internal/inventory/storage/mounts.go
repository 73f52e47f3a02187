package storage

import (
	"strings"
)

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

// parseMountinfo parses /proc/self/mountinfo. Lines that do not follow the
// format are skipped.
func parseMountinfo(s string) []mountEntry {
	var out []mountEntry
	for _, line := range strings.Split(s, "\n") {
		pre, post, ok := strings.Cut(line, " - ")
		if !ok {
			continue
		}
		a := strings.Fields(pre)
		b := strings.Fields(post)
		if len(a) < 5 || len(b) < 2 {
			continue
		}
		out = append(out, mountEntry{
			devno:  a[2],
			source: unescapeMount(b[1]),
			Mount:  Mount{MountPoint: unescapeMount(a[4]), FSType: b[0]},
		})
	}
	return out
}

// parseProcMounts parses /proc/mounts (fstab format).
func parseProcMounts(s string) []mountEntry {
	var out []mountEntry
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		out = append(out, mountEntry{
			source: unescapeMount(f[0]),
			Mount:  Mount{MountPoint: unescapeMount(f[1]), FSType: f[2]},
		})
	}
	return out
}

// unescapeMount undoes the kernel's octal escaping of space, tab, newline
// and backslash ("\040" → " ").
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && isOctal(s, i+1) {
			b.WriteByte((s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0'))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isOctal(s string, i int) bool {
	if i+3 > len(s) {
		return false
	}
	for _, c := range []byte(s[i : i+3]) {
		if c < '0' || c > '7' {
			return false
		}
	}
	return s[i] <= '3'
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

// ParseMountinfo parses /proc/self/mountinfo; malformed lines are skipped.
func ParseMountinfo(s string) []MountInfo {
	var out []MountInfo
	for line := range strings.SplitSeq(s, "\n") {
		pre, post, ok := strings.Cut(line, " - ")
		if !ok {
			continue
		}
		a := strings.Fields(pre)
		b := strings.Fields(post)
		if len(a) < 6 || len(b) < 2 {
			continue
		}
		m := MountInfo{DevNo: a[2], Root: unescapeMount(a[3]), MountPoint: unescapeMount(a[4]),
			Options: strings.Split(a[5], ","), FSType: b[0], Source: unescapeMount(b[1])}
		if len(b) >= 3 {
			for _, o := range strings.Split(b[2], ",") {
				m.SuperOptions = append(m.SuperOptions, unescapeMount(o))
			}
		}
		out = append(out, m)
	}
	return out
}
