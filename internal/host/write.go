package host

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"boardbench/internal/regfile"
)

// WriteFile writes a tunable (cpufreq or devfreq governor or limit). Only
// paths on the write allow-list are accepted; on a fixture root the fixture's
// file is written, which lets tests prove that changes are restored.
func (h *Host) WriteFile(p string, data []byte) error {
	p, err := clean(p)
	if err != nil {
		return err
	}
	if !writeAllowed(p) {
		return &fs.PathError{Op: "write", Path: p, Err: ErrNotAllowed}
	}
	rp, err := h.resolve(p)
	if err != nil {
		return err
	}
	f, err := h.openTunable(rp)
	if err != nil {
		return &fs.PathError{Op: "write", Path: p, Err: unwrapPathError(err)}
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return &fs.PathError{Op: "write", Path: p, Err: unwrapPathError(err)}
	}
	if err := f.Close(); err != nil {
		return &fs.PathError{Op: "write", Path: p, Err: unwrapPathError(err)}
	}
	return nil
}

// openTunable opens the regular file at a resolved machine path for writing.
// A FIFO, device or link in its place is refused before it is opened (a
// fixture's tunable must never become a write to a device), and checked
// again on the open descriptor.
func (h *Host) openTunable(rp string) (*os.File, error) {
	st, err := h.lstat(rp)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, regfile.ErrNotRegular
	}
	flags := os.O_WRONLY | os.O_TRUNC | syscall.O_NONBLOCK
	if h.links() == regfile.NoFollow {
		flags |= syscall.O_NOFOLLOW
	}
	f, err := os.OpenFile(h.real(rp), flags, 0)
	if err != nil {
		return nil, err
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		f.Close()
		return nil, regfile.ErrNotRegular
	}
	return f, nil
}

// WriteString writes s to an allow-listed tunable.
func (h *Host) WriteString(p, s string) error { return h.WriteFile(p, []byte(s)) }

// IsRoot reports whether the tool runs with root privileges.
func (h *Host) IsRoot() bool { return os.Geteuid() == 0 }

// Errorf wraps an error with the machine path it concerns.
func Errorf(p string, err error) error { return fmt.Errorf("%s: %w", p, err) }
