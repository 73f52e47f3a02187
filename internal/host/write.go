package host

import (
	"fmt"
	"io/fs"
	"os"
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
	f, err := os.OpenFile(h.real(rp), os.O_WRONLY|os.O_TRUNC, 0)
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

// WriteString writes s to an allow-listed tunable.
func (h *Host) WriteString(p, s string) error { return h.WriteFile(p, []byte(s)) }

// IsRoot reports whether the tool runs with root privileges.
func (h *Host) IsRoot() bool { return os.Geteuid() == 0 }

// Errorf wraps an error with the machine path it concerns.
func Errorf(p string, err error) error { return fmt.Errorf("%s: %w", p, err) }
