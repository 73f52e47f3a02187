// Package iostreams holds the standard streams of a command and knows whether
// they are terminals, so that colours and updating progress lines appear only
// on a TTY and never with NO_COLOR set.
package iostreams

import (
	"bytes"
	"io"
	"os"

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

// System returns the process's real streams.
func System() *IOStreams {
	s := &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr}
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
