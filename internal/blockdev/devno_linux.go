package blockdev

import (
	"fmt"
	"io/fs"
	"syscall"

	"golang.org/x/sys/unix"
)

// devNumber returns "MAJOR:MINOR" of a device node ("" when unknown).
func devNumber(fi fs.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return ""
	}
	rdev := uint64(st.Rdev) //nolint:unconvert // the field's type differs between architectures
	return fmt.Sprintf("%d:%d", unix.Major(rdev), unix.Minor(rdev))
}
