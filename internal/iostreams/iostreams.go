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
// first write error (see OutErr).
func System() *IOStreams {
	s := &IOStreams{In: os.Stdin, Out: NewErrWriter(os.Stdout), ErrOut: os.Stderr}
	s.outTTY = isTerminal(os.Stdout)
	s.errTTY = isTerminal(os.Stderr)
	s.color = colorEnabled(s.outTTY, os.Getenv)
	return s
}

// Test returns streams backed by buffers, never a TTY.
func Test() (s *IOStreams, stdout, stderr *bytes.Buffer) {
	stdout, stderr = &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: &bytes.Buffer{}, Out: stdout, ErrOut: stderr}, stdout, stderr
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
