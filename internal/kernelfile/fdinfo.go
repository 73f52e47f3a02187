package kernelfile

import (
	"strconv"
	"strings"
)

// FDInfo is what boardbench reads of /proc/PID/fdinfo/FD: how the file
// was opened and on which mount it lies.
type FDInfo struct {
	// Flags are the open flags (O_*), given by the kernel in octal.
	Flags uint64
	// MntID is the id of the mount holding the file, as in the first
	// field of /proc/PID/mountinfo; -1 when the file does not say
	// (kernels before 3.15).
	MntID int
}

// Access modes of the open flags (the same on every Linux architecture).
const (
	oAccMode = 0o3
	oWronly  = 0o1
	oRdwr    = 0o2
)

// Writable reports whether the file was opened for writing (O_WRONLY or
// O_RDWR).
func (f FDInfo) Writable() bool {
	m := f.Flags & oAccMode
	return m == oWronly || m == oRdwr
}

// ParseFDInfo parses the content of /proc/PID/fdinfo/FD:
//
//	pos:	0
//	flags:	0100002
//	mnt_id:	29
//	ino:	1234
//
// followed by lines that depend on the kind of file. ok is false unless a
// well-formed flags: line is there; a missing or malformed mnt_id: leaves
// MntID at -1.
func ParseFDInfo(s string) (FDInfo, bool) {
	out := FDInfo{MntID: -1}
	found := false
	for line := range strings.SplitSeq(s, "\n") {
		key, val, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch key {
		case "flags":
			if found {
				continue
			}
			v, err := strconv.ParseUint(val, 8, 64)
			if err != nil {
				return FDInfo{MntID: -1}, false
			}
			out.Flags, found = v, true
		case "mnt_id":
			if v, err := strconv.Atoi(val); err == nil && v >= 0 {
				out.MntID = v
			}
		}
	}
	return out, found
}
