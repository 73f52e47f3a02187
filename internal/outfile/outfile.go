// Package outfile writes boardbench's output files (results, capture
// archives) safely:
//
//   - atomically: the data goes to a temporary file in the same directory,
//     which is synced and renamed over the path, then the directory is
//     synced, so readers and crashes only ever see a complete old or new
//     file;
//   - never over anything but a regular file: an existing device node, FIFO,
//     socket or directory at the path is refused before anything is written
//     (as root, a rename over /dev/null would break the whole system);
//   - through a link to its target: "-o link" replaces the file the link
//     points to and keeps the link.
//
// "-" names standard output; callers that accept it write there themselves
// (see IsStdout).
package outfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"syscall"

	"boardbench/internal/tempsweep"
)

// Stdout is the output path that means standard output.
const Stdout = "-"

// Perm is the mode of a written file.
const Perm fs.FileMode = 0o644

// IsStdout reports whether path names standard output.
func IsStdout(path string) bool { return path == Stdout }

// RefusedError says an output path cannot be used. It is bad input on the
// command line: its ExitCode is 2.
type RefusedError struct {
	Path   string
	Reason string
}

// Error is one line: the path and why it is refused.
func (e *RefusedError) Error() string { return e.Path + ": " + e.Reason }

// ExitCode is 2, the status of a usage error.
func (e *RefusedError) ExitCode() int { return 2 }

// Check returns nil when path may be written by Write: standard output, or
// a path in an existing, writable directory where nothing but a regular
// file exists. Commands call it before they start work, so that a bad -o
// fails at once rather than after a long run. Errors are *RefusedError.
func Check(path string) error {
	if IsStdout(path) {
		return nil
	}
	target, err := target(path)
	if err != nil {
		return err
	}
	// Prove the directory takes a new file now rather than at the end.
	tmp, err := os.CreateTemp(filepath.Dir(target), ".boardbench-check-*")
	if err != nil {
		return &RefusedError{Path: path, Reason: "cannot write in its directory: " + reason(err).Error()}
	}
	tmp.Close()
	os.Remove(tmp.Name())
	return nil
}

// target returns the file that writing path replaces (the target of a
// link), refusing anything that is not a regular file or missing.
func target(path string) (string, error) {
	if path == "" {
		return "", &RefusedError{Path: `""`, Reason: "empty output path"}
	}
	target := path
	if st, err := os.Lstat(path); err == nil && st.Mode()&fs.ModeSymlink != 0 {
		if target, err = filepath.EvalSymlinks(path); err != nil {
			return "", &RefusedError{Path: path, Reason: "a link whose target cannot be followed: " + reason(err).Error()}
		}
	}
	st, err := os.Lstat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return "", &RefusedError{Path: path, Reason: reason(err).Error()}
	case st.IsDir():
		return "", &RefusedError{Path: path, Reason: "is a directory"}
	case !st.Mode().IsRegular():
		return "", &RefusedError{Path: path, Reason: "exists and is not a regular file (" + kind(st.Mode()) + "); boardbench only replaces regular files"}
	}
	dir := filepath.Dir(target)
	if st, err := os.Stat(dir); err != nil {
		return "", &RefusedError{Path: path, Reason: "directory " + dir + ": " + reason(err).Error()}
	} else if !st.IsDir() {
		return "", &RefusedError{Path: path, Reason: dir + " is not a directory"}
	}
	return target, nil
}

// Write calls write with a temporary file in the directory of path and,
// when write succeeds, syncs the file, renames it over path and syncs the
// directory. On any failure the temporary file is removed and path is left
// as it was. Path must not be Stdout. A path that cannot be used is a
// *RefusedError; a failure while writing (a full disk) is returned as is.
func Write(path string, write func(w io.Writer) error) error {
	if IsStdout(path) {
		return &RefusedError{Path: path, Reason: "standard output is not possible here"}
	}
	target, err := target(path)
	if err != nil {
		return err
	}
	dir := filepath.Dir(target)
	SweepStale(dir)
	tmp, err := os.CreateTemp(dir, ".boardbench-*.tmp")
	if err != nil {
		return &RefusedError{Path: path, Reason: "cannot write in its directory: " + reason(err).Error()}
	}
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if err := write(tmp); err != nil {
		return err
	}
	if err := tmp.Chmod(Perm); err != nil {
		return fmt.Errorf("writing %s: %v", path, reason(err))
	}
	if err := tmp.Sync(); err != nil {
		return fmt.Errorf("writing %s: %v", path, reason(err))
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %v", path, reason(err))
	}
	// Something may have appeared at the path since target looked.
	if _, err := targetAgain(path, target); err != nil {
		os.Remove(tmp.Name())
		done = true
		return err
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		os.Remove(tmp.Name())
		done = true
		return fmt.Errorf("writing %s: %v", path, reason(err))
	}
	done = true
	return syncDir(dir, path)
}

// tempNames are the temporary files Write and Check create (os.CreateTemp
// puts a decimal number in place of the star); compiled when a sweep
// asks, not at start-up.
func tempNames() []*regexp.Regexp {
	return []*regexp.Regexp{
		regexp.MustCompile(`^\.boardbench-[0-9]+\.tmp$`),
		regexp.MustCompile(`^\.boardbench-check-[0-9]+$`),
	}
}

// SweepStale removes the temporary files a killed boardbench left in dir
// (a SIGKILL during a write leaves .boardbench-NNN.tmp, as large as the
// file being written), with tempsweep's checks: exact name, regular file,
// not followed through a link, this user's, untouched for
// tempsweep.MinAge. It says what it removed in one line on standard
// error. Write calls it before it writes in a directory.
func SweepStale(dir string) {
	if line := tempsweep.Line(dir, tempsweep.Sweep(dir, tempsweep.Options{Patterns: tempNames(), UID: -1})); line != "" {
		fmt.Fprintf(os.Stderr, "boardbench: %s\n", line)
	}
}

// targetAgain repeats the check of target just before the rename.
func targetAgain(path, want string) (string, error) {
	got, err := target(path)
	if err == nil && got != want {
		err = &RefusedError{Path: path, Reason: "changed while it was being written"}
	}
	return got, err
}

// WriteFile writes data to path with Write.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		if _, err := w.Write(data); err != nil {
			return fmt.Errorf("writing %s: %v", path, reason(err))
		}
		return nil
	})
}

// syncDir makes a rename in dir durable. File systems that cannot sync a
// directory are not an error.
func syncDir(dir, path string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("writing %s: syncing its directory: %v", path, reason(err))
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOTSUP) {
		return fmt.Errorf("writing %s: syncing its directory: %v", path, reason(err))
	}
	return nil
}

func reason(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// kind names a file type for an error message.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeSymlink != 0:
		return "a link"
	}
	return "a special file"
}
