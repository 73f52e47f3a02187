// Package regfile reads regular files and nothing else: it never opens a
// FIFO, device node or socket (so a read can neither block forever nor
// trigger a device's side effects), and it never reads more than a bound.
//
// The file's type is checked before it is opened, and checked again on the
// open descriptor (opened non-blocking), so a file swapped for a FIFO in
// between cannot hang the read either.
package regfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// constError is an error whose value is its text, so that a sentinel
// error is a constant: static data that costs nothing when boardbench
// starts (errors.New would run at init). errors.Is and == match it.
type constError string

func (e constError) Error() string { return string(e) }

// ErrNotRegular is the error for a path that is a FIFO, device, socket,
// directory or (with NoFollow) a symbolic link.
const ErrNotRegular = constError("not a regular file")

// TooLargeError says a file holds more than a read allows.
type TooLargeError struct {
	// Limit is the largest number of bytes the read accepted.
	Limit int64
}

// Error names the limit in human units.
func (e *TooLargeError) Error() string { return "larger than " + Size(e.Limit) }

// Links says whether a symbolic link as the last component of a path is
// followed.
type Links int

const (
	// Follow follows a final symbolic link, as open(2) does.
	Follow Links = iota
	// NoFollow refuses a final symbolic link (ErrNotRegular), for callers
	// that resolved links themselves.
	NoFollow
)

// Open opens name for reading when it is a regular file. Errors are
// *fs.PathError values with op "open".
func Open(name string, links Links) (*os.File, error) {
	f, _, err := open(name, links)
	return f, err
}

// open is Open that also returns the size the open file reports. The
// first check stats into a value on the stack: a description reads
// hundreds of small files, and each os.Stat would allocate.
func open(name string, links Links) (*os.File, int64, error) {
	flags, op := os.O_RDONLY|syscall.O_NONBLOCK, "stat"
	if links == NoFollow {
		flags, op = flags|syscall.O_NOFOLLOW, "lstat"
	}
	var sys syscall.Stat_t
	for {
		var err error
		if links == NoFollow {
			err = syscall.Lstat(name, &sys)
		} else {
			err = syscall.Stat(name, &sys)
		}
		if err == nil {
			break
		}
		if err != syscall.EINTR {
			return nil, 0, &fs.PathError{Op: op, Path: name, Err: err}
		}
	}
	if sys.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, 0, &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	}
	f, err := os.OpenFile(name, flags, 0)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, 0, &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
		}
		return nil, 0, err
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
		}
		return nil, 0, err
	}
	return f, st.Size(), nil
}

// Read returns the whole content of the regular file name. A file that
// holds more than limit bytes is an error (*TooLargeError inside an
// *fs.PathError), found from its size before any byte is read when the
// size is known, so a huge sparse file costs nothing.
func Read(name string, limit int64, links Links) ([]byte, error) {
	return read(name, limit, links, false)
}

// Head returns at most n bytes from the start of the regular file name.
func Head(name string, n int64, links Links) ([]byte, error) {
	return read(name, n, links, true)
}

// smallRead is how much a read takes into a buffer on the stack first:
// most files of /proc and /sys hold a few bytes, and the result is then
// allocated at its own size.
const smallRead = 512

func read(name string, limit int64, links Links, head bool) ([]byte, error) {
	limit = max(limit, 0)
	f, size, err := open(name, links)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	tooLarge := func() error {
		return &fs.PathError{Op: "read", Path: name, Err: &TooLargeError{Limit: limit}}
	}
	// Files of /proc and /sys report size 0 or 4096, so only a size above
	// the limit is trusted; the read itself is bounded either way.
	if size > limit && !head {
		return nil, tooLarge()
	}
	want := limit + 1
	var small [smallRead]byte
	buf := small[:min(int64(len(small)), want)]
	n, eof := 0, false
	for n < len(buf) && !eof {
		m, err := f.Read(buf[n:])
		n += m
		switch {
		case err == io.EOF:
			eof = true
		case err != nil:
			return nil, &fs.PathError{Op: "read", Path: name, Err: unwrap(err)}
		}
	}
	var data []byte
	if eof || int64(n) >= want {
		data = append([]byte{}, small[:n]...)
	} else {
		// One buffer for the whole file, as big as the size the file
		// reports (a regular file, /proc/config.gz) and one byte more to
		// see its end, else grown as the bytes come: io.ReadAll's growth
		// and a copy took 112 KB to read a 24 KB /proc/config.gz.
		c := int64(n) * 2
		if size > int64(n) {
			c = size + 1
		}
		data = append(make([]byte, 0, min(c, want)), small[:n]...)
		for int64(len(data)) < want {
			if len(data) == cap(data) {
				data = append(data, 0)[:len(data)]
			}
			m, err := f.Read(data[len(data):min(int64(cap(data)), want)])
			data = data[:len(data)+m]
			if err == io.EOF {
				break
			}
			if err != nil {
				return nil, &fs.PathError{Op: "read", Path: name, Err: unwrap(err)}
			}
		}
	}
	if int64(len(data)) > limit {
		if !head {
			return nil, tooLarge()
		}
		data = data[:limit]
	}
	return data, nil
}

func unwrap(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// Size formats a byte count as the largest exact binary unit, e.g. "4 MiB".
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
