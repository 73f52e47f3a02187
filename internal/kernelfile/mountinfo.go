package kernelfile

import (
	"strconv"
	"strings"
)

// MountDev is the device of one mount of /proc/PID/mountinfo.
type MountDev struct {
	// DevNo is the filesystem's device number "MAJOR:MINOR" (major 0 for
	// filesystems without a block device, and for btrfs).
	DevNo string
	// FSType is the filesystem type and Source the mount source (e.g.
	// "/dev/mmcblk0p2"), with mountinfo's octal escapes left as they are.
	FSType, Source string
}

// ParseMountDevs parses /proc/PID/mountinfo into a map from mount id (the
// first field, which /proc/PID/fdinfo's mnt_id: names) to the mount's
// device. Malformed lines are skipped; a repeated id keeps its first line.
func ParseMountDevs(s string) map[int]MountDev {
	out := map[int]MountDev{}
	for line := range strings.SplitSeq(s, "\n") {
		pre, post, ok := strings.Cut(line, " - ")
		if !ok {
			continue
		}
		a, b := strings.Fields(pre), strings.Fields(post)
		if len(a) < 5 || len(b) < 2 {
			continue
		}
		id, err := strconv.Atoi(a[0])
		if err != nil || id < 0 {
			continue
		}
		dev, ok := parseDevNo(a[2], 10)
		if !ok {
			continue
		}
		if _, dup := out[id]; !dup {
			out[id] = MountDev{DevNo: dev, FSType: b[0], Source: b[1]}
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
