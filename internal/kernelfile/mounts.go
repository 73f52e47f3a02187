package kernelfile

import "strings"

// ParseMounts parses /proc/mounts (the fstab format: "SOURCE POINT TYPE
// OPTIONS 0 0") into mounts without ids, device number or root (ID and
// ParentID -1). Source and mount point have the kernel's octal escapes
// undone. Lines with fewer than three fields are skipped; a line without
// options has none.
func ParseMounts(s string) []MountInfo {
	var out []MountInfo
	for line := range strings.SplitSeq(s, "\n") {
		f := strings.Fields(line)
		if len(f) < 3 {
			continue
		}
		m := MountInfo{ID: -1, ParentID: -1, Source: unescapeOctal(f[0]), MountPoint: unescapeOctal(f[1]), FSType: f[2], Line: line}
		if len(f) >= 4 {
			m.Options = strings.Split(f[3], ",")
		}
		out = append(out, m)
	}
	return out
}

// ReadMounts reads and parses /proc/mounts.
func ReadMounts(r Reader) ([]MountInfo, error) {
	data, err := r.ReadFile("/proc/mounts")
	if err != nil {
		return nil, err
	}
	return ParseMounts(string(data)), nil
}
