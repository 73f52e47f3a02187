// Package iostreams holds the standard streams of a command and knows whether
// they are terminals, so that colours and updating progress lines appear only
// on a TTY and never with NO_COLOR set.
package iostreams

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"

	"golang.org/x/sys/unix"
)

// IOStreams are a command's input and outputs.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	outTTY bool
	errTTY bool
	color  bool
	// width overrides the measured terminal width when positive (tests).
	width int
}

func isTerminal(f *os.File) bool {
	_, err := unix.IoctlGetTermios(int(f.Fd()), unix.TCGETS)
	return err == nil
}

// System returns the process's real streams. Standard output remembers its
// first write error (see OutErr). Both outputs escape control characters
// (see Sanitizer); RawOut and RawErrOut bypass that.
func System() *IOStreams {
	s := &IOStreams{In: os.Stdin}
	s.sanitize(NewErrWriter(os.Stdout), os.Stderr)
	s.outTTY = isTerminal(os.Stdout)
	s.errTTY = isTerminal(os.Stderr)
	s.color = colorEnabled(s.outTTY, os.Getenv)
	return s
}

// Test returns streams backed by buffers, never a TTY. Like System's,
// they escape control characters on their way to the buffers.
func Test() (s *IOStreams, stdout, stderr *bytes.Buffer) {
	stdout, stderr = &bytes.Buffer{}, &bytes.Buffer{}
	s = &IOStreams{In: &bytes.Buffer{}}
	s.sanitize(stdout, stderr)
	return s, stdout, stderr
}

// sanitize sets Out and ErrOut to Sanitizers writing to out and errOut,
// which let boardbench's own drawing sequences pass while the stream is a
// terminal.
func (s *IOStreams) sanitize(out, errOut io.Writer) {
	s.Out = NewSanitizer(out, func() bool { return s.outTTY })
	s.ErrOut = NewSanitizer(errOut, func() bool { return s.errTTY })
}

// RawOut returns standard output without the Sanitizer: for bytes that are
// not text from a file — binary data (`capture -o -`) and the output of a
// child boardbench runs for the user (`monitor -- COMMAND`), which must
// reach the terminal as the child wrote it.
func (s *IOStreams) RawOut() io.Writer { return raw(s.Out) }

// RawErrOut is RawOut for standard error.
func (s *IOStreams) RawErrOut() io.Writer { return raw(s.ErrOut) }

func raw(w io.Writer) io.Writer {
	if z, ok := w.(*Sanitizer); ok {
		return z.w
	}
	return w
}

// IsStdoutTTY reports whether standard output is a terminal.
func (s *IOStreams) IsStdoutTTY() bool { return s.outTTY }

// IsStderrTTY reports whether standard error is a terminal (where progress goes).
func (s *IOStreams) IsStderrTTY() bool { return s.errTTY }

// ColorEnabled reports whether colours may be used on standard output.
func (s *IOStreams) ColorEnabled() bool { return s.color }

// SetTTY overrides terminal detection (tests).
func (s *IOStreams) SetTTY(out, err, color bool) { s.outTTY, s.errTTY, s.color = out, err, color }

// OutErr returns the first error met writing to Out (a full disk, a closed
// pipe) as one line, "writing standard output: no space left on device",
// or nil. Commands check it before they report success: output that did
// not arrive is a failure (exit status 1), even when the renderer that
// wrote it ignored the error.
func (s *IOStreams) OutErr() error {
	e, ok := s.Out.(interface{ Err() error })
	if !ok || e.Err() == nil {
		return nil
	}
	err := e.Err()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("writing standard output: %w", err)
}

// ErrWriter passes writes on and remembers the first error; after an error
// every write fails with it. It is safe for concurrent use.
type ErrWriter struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

// NewErrWriter returns an ErrWriter writing to w.
func NewErrWriter(w io.Writer) *ErrWriter { return &ErrWriter{w: w} }

// Write writes p unless an earlier write failed.
func (e *ErrWriter) Write(p []byte) (int, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	e.err = err
	return n, err
}

// Err returns the first write error, or nil.
func (e *ErrWriter) Err() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.err
}
