package proc

import (
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// WindowSize is the size in characters a pseudo-terminal reports to the
// program (TIOCGWINSZ).
type WindowSize struct {
	Rows, Cols int
}

// ErrPTY marks a Start that failed because the pseudo-terminal of
// Spec.PTY could not be set up (no /dev/ptmx, e.g. in some containers); the
// caller may start the program again without it.
const ErrPTY = constError("pseudo-terminal")

// DefaultWindowSize is the pseudo-terminal's size when Spec.PTYSize is zero.
var DefaultWindowSize = WindowSize{Rows: 24, Cols: 80}

// ptyOutput is the pseudo-terminal a program's standard output goes to and
// the copy of what it writes there.
type ptyOutput struct {
	master *os.File
	tty    *os.File // the program's end; closed in boardbench once started
	done   chan struct{}
	err    error // a read error other than the program's end closing; set before done
}

// openPTY opens a pseudo-terminal of the given size whose output is passed
// through unchanged: newline translation (ONLCR) is off, so that what the
// program writes reaches Stdout and the capture byte for byte as it would
// through a pipe. Nothing else of the terminal's settings is changed, and
// the caller's own terminal is not touched.
func openPTY(size WindowSize) (*ptyOutput, error) {
	master, tty, err := pty.Open()
	if err != nil {
		return nil, fmt.Errorf("opening a %w: %w", ErrPTY, err)
	}
	fail := func(err error) (*ptyOutput, error) {
		master.Close()
		tty.Close()
		return nil, err
	}
	if size.Rows <= 0 || size.Cols <= 0 {
		size = DefaultWindowSize
	}
	ws := &pty.Winsize{Rows: uint16(min(size.Rows, 0xffff)), Cols: uint16(min(size.Cols, 0xffff))}
	if err := pty.Setsize(tty, ws); err != nil {
		return fail(fmt.Errorf("setting the %w's size: %w", ErrPTY, err))
	}
	t, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err != nil {
		return fail(fmt.Errorf("reading the %w's settings: %w", ErrPTY, err))
	}
	t.Oflag &^= unix.ONLCR
	if err := unix.IoctlSetTermios(int(tty.Fd()), unix.TCSETS, t); err != nil {
		return fail(fmt.Errorf("setting the %w's output mode: %w", ErrPTY, err))
	}
	return &ptyOutput{master: master, tty: tty, done: make(chan struct{})}, nil
}

// copyTo copies what the program writes on the terminal to w until every
// copy of the program's end is closed (the master then reads EIO) or the
// master is closed, and closes done.
func (p *ptyOutput) copyTo(w io.Writer) {
	defer close(p.done)
	if w == nil {
		w = io.Discard
	}
	buf := make([]byte, 32*1024)
	for {
		n, err := p.master.Read(buf)
		if n > 0 {
			_, _ = w.Write(buf[:n]) // teeWriter never fails
		}
		if err != nil {
			if !isPTYEnd(err) {
				p.err = err
			}
			return
		}
	}
}

// finish waits for the copy to end, at most delay after the program has
// exited (processes it left running may hold the terminal open), then
// closes the master, which ends the copy.
func (p *ptyOutput) finish(delay time.Duration) {
	select {
	case <-p.done:
	case <-time.After(delay):
	}
	p.master.Close()
	<-p.done
}

// closeAll closes both ends after a failed start.
func (p *ptyOutput) closeAll() {
	p.master.Close()
	p.tty.Close()
}

// isPTYEnd reports whether err is how a pseudo-terminal's master says that
// the program's end was closed (EIO on Linux), rather than a read error.
func isPTYEnd(err error) bool {
	return errors.Is(err, unix.EIO) || errors.Is(err, io.EOF) || errors.Is(err, os.ErrClosed)
}
