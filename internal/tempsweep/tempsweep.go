// Package tempsweep removes the temporary files a killed boardbench left in
// a directory: a SIGKILL (or a power cut) gives boardbench no chance to
// remove its `.boardbench-NNN.tmp` output files or fio's
// `.boardbench-fio-*` test files, which may hold hundreds of megabytes. A
// file is removed only when all of these hold:
//
//   - its name matches one of the given patterns exactly (boardbench's own
//     temporary names);
//   - it is a regular file (never a link, which is not followed, nor a
//     directory, device or FIFO), checked without following a link, on the
//     directory's descriptor, just before it is unlinked there;
//   - it belongs to the user boardbench runs as;
//   - it was not written for at least the minimum age (a running boardbench
//     writes its files continuously, so a younger one may be in use).
package tempsweep

import (
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"
	"time"

	"boardbench/internal/textfmt"

	"golang.org/x/sys/unix"
)

// MinAge is how long a temporary file must have been left untouched before
// it is swept.
const MinAge = 10 * time.Minute

// Swept is one removed file.
type Swept struct {
	Name  string
	Bytes int64
}

// Options says what to sweep.
type Options struct {
	// Patterns are the names to sweep (matched against the whole name).
	Patterns []*regexp.Regexp
	// Now is the current time (time.Now when zero).
	Now time.Time
	// MinAge overrides MinAge when positive.
	MinAge time.Duration
	// UID is the owner files must have; -1 means the effective user.
	UID int
}

// Sweep removes the stale temporary files in dir (see the package comment)
// and returns them. A directory that cannot be read sweeps nothing and is
// not an error (the caller reports its own failure to write there).
func Sweep(dir string, opt Options) []Swept {
	now := opt.Now
	if now.IsZero() {
		now = time.Now()
	}
	minAge := opt.MinAge
	if minAge <= 0 {
		minAge = MinAge
	}
	uid := opt.UID
	if uid < 0 {
		uid = os.Geteuid()
	}
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	defer unix.Close(fd)
	names, err := readNames(fd, dir)
	if err != nil {
		return nil
	}
	var out []Swept
	for _, name := range names {
		if !matches(name, opt.Patterns) {
			continue
		}
		var st unix.Stat_t
		if err := unix.Fstatat(fd, name, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
			continue
		}
		if st.Mode&unix.S_IFMT != unix.S_IFREG || int(st.Uid) != uid {
			continue
		}
		if now.Sub(time.Unix(st.Mtim.Unix())) < minAge {
			continue
		}
		if err := unix.Unlinkat(fd, name, 0); err != nil {
			continue
		}
		out = append(out, Swept{Name: name, Bytes: st.Size})
	}
	return out
}

// readNames lists a directory through a duplicate of its open descriptor
// (the caller keeps and closes fd).
func readNames(fd int, dir string) ([]string, error) {
	dup, err := unix.Dup(fd)
	if err != nil {
		return nil, err
	}
	f := os.NewFile(uintptr(dup), dir)
	defer f.Close()
	names, err := f.Readdirnames(-1)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return names, err
	}
	return names, nil
}

func matches(name string, pats []*regexp.Regexp) bool {
	for _, p := range pats {
		if p.MatchString(name) {
			return true
		}
	}
	return false
}

// Line sums up a sweep in one line for standard error; "" when nothing was
// removed.
func Line(dir string, swept []Swept) string {
	if len(swept) == 0 {
		return ""
	}
	var total int64
	names := make([]string, 0, len(swept))
	for _, s := range swept {
		total += s.Bytes
		names = append(names, s.Name)
	}
	if len(names) > 3 {
		names = append(names[:3], fmt.Sprintf("and %d more", len(swept)-3))
	}
	return fmt.Sprintf("removed %d temporary file(s) a killed boardbench left in %s (%s): %s",
		len(swept), dir, textfmt.Bytes(total), strings.Join(names, ", "))
}
