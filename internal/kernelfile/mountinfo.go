package kernelfile

import (
	"strconv"
	"strings"
)

// MountInfo is one mount of /proc/PID/mountinfo:
//
//	36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
//
// or, read from /proc/mounts (ReadMountTable's fallback), of its fstab-like
// lines, which lack the ids, the device number and the root.
type MountInfo struct {
	// ID and ParentID are the mount's id (what /proc/PID/fdinfo's mnt_id
	// names) and its parent's; -1 from /proc/mounts.
	ID, ParentID int
	// DevNo is the filesystem's device number "MAJOR:MINOR" as written
	// (major 0 for filesystems without a block device, and for btrfs); ""
	// from /proc/mounts.
	DevNo string
	// Root is the directory of the filesystem mounted here ("/" unless a
	// bind mount of a subdirectory); "" from /proc/mounts.
	Root string
	// MountPoint is where it is mounted.
	MountPoint string
	// Options are the per-mount options (rw, noatime, relatime...); from
	// /proc/mounts, the mount's and the filesystem's options together.
	Options []string
	// Optional are mountinfo's optional fields (shared:N, master:N...).
	Optional []string
	// FSType is the filesystem type and Source the mount source, e.g.
	// "/dev/mmcblk0p2" or "tmpfs".
	FSType, Source string
	// SuperOptions are the filesystem's own options (commit=600, discard;
	// for overlayfs lowerdir=, upperdir=); nil from /proc/mounts.
	SuperOptions []string
	// Line is the line as the kernel wrote it, for evidence.
	Line string
}

// ParseMountInfo parses /proc/PID/mountinfo. Paths (root, mount point,
// source) and filesystem options have the kernel's octal escapes ("\040")
// undone. A line needs the six fields before the " - " separator and the
// type and source after it; malformed lines are skipped.
func ParseMountInfo(s string) []MountInfo {
	var out []MountInfo
	for line := range strings.SplitSeq(s, "\n") {
		pre, post, ok := strings.Cut(line, " - ")
		if !ok {
			continue
		}
		a, b := strings.Fields(pre), strings.Fields(post)
		if len(a) < 6 || len(b) < 2 {
			continue
		}
		id, err1 := strconv.Atoi(a[0])
		parent, err2 := strconv.Atoi(a[1])
		if err1 != nil || err2 != nil || id < 0 || parent < 0 {
			continue
		}
		m := MountInfo{ID: id, ParentID: parent, DevNo: a[2], Root: unescapeOctal(a[3]),
			MountPoint: unescapeOctal(a[4]), Options: strings.Split(a[5], ","),
			FSType: b[0], Source: unescapeOctal(b[1]), Line: line}
		if len(a) > 6 {
			m.Optional = a[6:]
		}
		if len(b) >= 3 {
			for o := range strings.SplitSeq(b[2], ",") {
				m.SuperOptions = append(m.SuperOptions, unescapeOctal(o))
			}
		}
		out = append(out, m)
	}
	return out
}

// ReadMountInfo reads and parses /proc/PID/mountinfo (Self for
// /proc/self/mountinfo).
func ReadMountInfo(r Reader, pid int) ([]MountInfo, error) {
	data, err := r.ReadFile(procPath(pid, "mountinfo"))
	if err != nil {
		return nil, err
	}
	return ParseMountInfo(string(data)), nil
}

// ReadMountTable reads the mount table: /proc/self/mountinfo, or
// /proc/mounts when mountinfo cannot be read (its entries then have no ids,
// device number or root). The error is /proc/mounts' when neither can be
// read.
func ReadMountTable(r Reader) ([]MountInfo, error) {
	if ms, err := ReadMountInfo(r, Self); err == nil {
		return ms, nil
	}
	return ReadMounts(r)
}

// MountDev is the device of one mount of /proc/PID/mountinfo.
type MountDev struct {
	// DevNo is the filesystem's device number "MAJOR:MINOR" in decimal.
	DevNo string
	// FSType is the filesystem type and Source the mount source (e.g.
	// "/dev/mmcblk0p2"), unescaped.
	FSType, Source string
}

// ParseMountDevs parses /proc/PID/mountinfo into a map from mount id (the
// first field, which /proc/PID/fdinfo's mnt_id: names) to the mount's
// device. Malformed lines are skipped; a repeated id keeps its first line.
func ParseMountDevs(s string) map[int]MountDev {
	out := map[int]MountDev{}
	for _, m := range ParseMountInfo(s) {
		dev, ok := parseDevNo(m.DevNo, 10)
		if !ok {
			continue
		}
		if _, dup := out[m.ID]; !dup {
			out[m.ID] = MountDev{DevNo: dev, FSType: m.FSType, Source: m.Source}
		}
	}
	return out
}

// parseDevNo reads "MAJOR:MINOR" in the given base and returns it in
// decimal, the form of /sys/class/block/NAME/dev.
func parseDevNo(s string, base int) (string, bool) {
	maj, min, ok := strings.Cut(s, ":")
	if !ok {
		return "", false
	}
	a, err1 := strconv.ParseUint(maj, base, 32)
	b, err2 := strconv.ParseUint(min, base, 32)
	if err1 != nil || err2 != nil {
		return "", false
	}
	return strconv.FormatUint(a, 10) + ":" + strconv.FormatUint(b, 10), true
}
