package host

import (
	"context"
	"strings"

	"golang.org/x/sys/unix"
)

// Uname is the kernel's identification of itself.
type Uname struct {
	// Machine is the kernel's architecture (uname -m), e.g. "aarch64"; empty
	// when unknown.
	Machine string
	// Release is the kernel release (uname -r).
	Release string
	// Version is the kernel build string (uname -v).
	Version string
}

// Uname returns the kernel's identification. On the live system it asks the
// kernel; on a fixture root it reads /proc/sys/kernel and the recorded
// `uname -m`. Fields that cannot be known stay empty.
func (h *Host) Uname() Uname {
	var u Uname
	if h.live {
		var raw unix.Utsname
		if err := unix.Uname(&raw); err == nil {
			u.Machine = unix.ByteSliceToString(raw.Machine[:])
			u.Release = unix.ByteSliceToString(raw.Release[:])
			u.Version = unix.ByteSliceToString(raw.Version[:])
			if h.rec != nil {
				h.rec.addCommand(CommandKey("uname", "-m"), []byte(u.Machine+"\n"))
			}
		}
	}
	if u.Release == "" {
		u.Release, _ = h.ReadString("/proc/sys/kernel/osrelease")
	} else if h.rec != nil {
		_, _ = h.ReadString("/proc/sys/kernel/osrelease")
	}
	if u.Version == "" {
		u.Version, _ = h.ReadString("/proc/sys/kernel/version")
	} else if h.rec != nil {
		_, _ = h.ReadString("/proc/sys/kernel/version")
	}
	if u.Machine == "" {
		if a, err := h.ReadString("/proc/sys/kernel/arch"); err == nil {
			u.Machine = a
		} else if out, err := h.Run(context.Background(), "uname", "-m"); err == nil {
			u.Machine = strings.TrimSpace(string(out))
		}
	}
	return u
}
