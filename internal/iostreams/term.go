package iostreams

import (
	"io"
	"os"
	"strconv"
	"strings"

	"golang.org/x/term"
)

// Terminal width bounds, in columns.
const (
	// DefaultWidth is the width assumed when the terminal's is unknown
	// (a pipe without COLUMNS).
	DefaultWidth = 80
	// MinWidth and MaxWidth bound any width reported or overridden: a
	// terminal narrower than MinWidth is treated as MinWidth, and lines
	// never grow past MaxWidth however wide the window.
	MinWidth = 20
	MaxWidth = 200
)

// colorEnabled decides whether colours may be written to a stream: only on
// a terminal, never with NO_COLOR set to a non-empty value (no-color.org),
// and never on a terminal that says it is dumb.
func colorEnabled(tty bool, getenv func(string) string) bool {
	return tty && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

// widthOf returns the width of the terminal w writes to: its real size when
// w is a terminal, else a positive COLUMNS from the environment, else
// DefaultWidth; always within [MinWidth, MaxWidth].
func widthOf(w io.Writer, getenv func(string) string) int {
	n := 0
	if f, ok := w.(*os.File); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil {
			n = cols
		}
	}
	if n <= 0 {
		if c, err := strconv.Atoi(strings.TrimSpace(getenv("COLUMNS"))); err == nil {
			n = c
		}
	}
	return clampWidth(n)
}

// clampWidth bounds n to [MinWidth, MaxWidth]; DefaultWidth when n ≤ 0.
func clampWidth(n int) int {
	if n <= 0 {
		return DefaultWidth
	}
	return min(max(n, MinWidth), MaxWidth)
}

// TerminalWidth returns the width in columns that text written to standard
// output should fit: the terminal's, COLUMNS on a pipe, or DefaultWidth,
// within [MinWidth, MaxWidth]. SetWidth overrides it.
func (s *IOStreams) TerminalWidth() int {
	if s.width > 0 {
		return s.width
	}
	return widthOf(s.Out, os.Getenv)
}

// StderrWidth is TerminalWidth for standard error, where the status line
// goes.
func (s *IOStreams) StderrWidth() int {
	if s.width > 0 {
		return s.width
	}
	return widthOf(s.ErrOut, os.Getenv)
}

// SetWidth overrides the width of both outputs (tests); n ≤ 0 goes back to
// measuring.
func (s *IOStreams) SetWidth(n int) {
	if n <= 0 {
		s.width = 0
		return
	}
	s.width = clampWidth(n)
}

// NewStatus returns the status line of a command on standard error: an
// updating line when standard error is a terminal; on a pipe, plain lines
// when opt.LinesOnPipe is set and nothing otherwise. The TTY flag and the
// width come from the streams, whatever opt says.
func (s *IOStreams) NewStatus(opt StatusOptions) *Status {
	opt.TTY = s.errTTY
	opt.Width = s.StderrWidth()
	return NewStatus(s.ErrOut, opt)
}
