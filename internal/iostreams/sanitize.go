package iostreams

import (
	"io"
	"sync"
	"unicode/utf8"
)

// Sanitizer is the one guard between text that came from files (result
// files, imported logs, the store, a machine's /proc and /sys) and a
// terminal. Every byte boardbench writes to standard output and standard
// error passes through one, so that a board name holding escape sequences
// cannot retitle the window, clear the screen or write the clipboard (OSC
// 52), whichever view prints it. It escapes, visibly and as JSON escapes
// (so that JSON stays valid):
//
//   - C0 control characters except newline and tab, as \u001b, \u0007…;
//   - DEL, as \u007f;
//   - C1 control characters (U+0080–U+009F), as \u009b…;
//   - bidirectional overrides and isolates (U+202A–U+202E,
//     U+2066–U+2069), which reorder what a line appears to say;
//   - bytes that are not UTF-8 (a raw 8-bit C1 byte among them), as
//     U+FFFD.
//
// On a terminal (term reports true), the sequences boardbench draws with
// pass unchanged: SGR colours and attributes (ESC [ digits ; … m), erase
// line (ESC [ K), erase below (ESC [ J), cursor up (ESC [ N A), and a
// carriage return followed by one of them. On a pipe or file nothing
// passes: boardbench writes no escape sequence there.
//
// A UTF-8 character or an allowed sequence split across two writes is
// joined (at most 16 bytes are held back for the next write). Writes of
// children's own output and of binary data bypass it (IOStreams.RawOut).
type Sanitizer struct {
	mu    sync.Mutex
	w     io.Writer
	term  func() bool
	carry []byte
}

// NewSanitizer returns a Sanitizer writing to w; term reports whether w
// is a terminal (nil: never).
func NewSanitizer(w io.Writer, term func() bool) *Sanitizer {
	if term == nil {
		term = func() bool { return false }
	}
	return &Sanitizer{w: w, term: term}
}

// maxCarry bounds the bytes held back between writes.
const maxCarry = 16

// Write escapes p and writes it; it reports len(p) when the escaped text
// was written whole.
func (s *Sanitizer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in := p
	if len(s.carry) > 0 {
		in = append(s.carry, p...)
		s.carry = nil
	}
	out, rest := Escape(nil, in, s.term())
	if len(rest) > 0 {
		s.carry = append([]byte(nil), rest...)
	}
	if len(out) == 0 {
		return len(p), nil
	}
	n, err := s.w.Write(out)
	if err == nil && n < len(out) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// Err returns the first write error of the writer below, when it keeps
// one (an ErrWriter), so that IOStreams.OutErr sees through the
// Sanitizer.
func (s *Sanitizer) Err() error {
	if e, ok := s.w.(interface{ Err() error }); ok {
		return e.Err()
	}
	return nil
}

// Escape appends p, escaped as the Sanitizer does, to dst. It returns the
// tail of p it cannot judge yet (an incomplete UTF-8 character or, on a
// terminal, an incomplete allowed sequence, at most maxCarry bytes), for
// the next call.
func Escape(dst, p []byte, term bool) (out, rest []byte) {
	const hex = "0123456789abcdef"
	esc := func(r rune) {
		dst = append(dst, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
	}
	i := 0
	for i < len(p) {
		c := p[i]
		switch {
		case c == '\n' || c == '\t' || (c >= 0x20 && c < 0x7f):
			dst = append(dst, c)
			i++
			continue
		case term && (c == 0x1b || c == '\r'):
			n, complete := allowedSequence(p[i:])
			if n > 0 {
				dst = append(dst, p[i:i+n]...)
				i += n
				continue
			}
			if !complete && len(p)-i <= maxCarry {
				return dst, p[i:]
			}
			esc(rune(c))
			i++
			continue
		case c < 0x80:
			esc(rune(c)) // C0 controls, DEL
			i++
			continue
		}
		r, size := utf8.DecodeRune(p[i:])
		if r == utf8.RuneError && size <= 1 {
			if !utf8.FullRune(p[i:]) {
				return dst, p[i:]
			}
			dst = append(dst, "\uFFFD"...)
			i++
			continue
		}
		if (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			esc(r)
		} else {
			dst = append(dst, p[i:i+size]...)
		}
		i += size
	}
	return dst, nil
}

// allowedSequence returns the length of the sequence of boardbench's own
// drawing at the start of p (see Sanitizer), 0 when there is none; complete
// is false when p ends before it could be told (more bytes may make one).
func allowedSequence(p []byte) (n int, complete bool) {
	start := 0
	if p[0] == '\r' {
		if len(p) == 1 {
			return 0, false
		}
		if p[1] != 0x1b {
			return 0, true
		}
		start = 1
	}
	q := p[start:]
	if len(q) < 2 {
		return 0, false
	}
	if q[1] != '[' {
		return 0, true
	}
	digits, semis := 0, 0
	for j := 2; j < len(q); j++ {
		c := q[j]
		switch {
		case c >= '0' && c <= '9':
			digits++
		case c == ';':
			semis++
		case c == 'm':
			return start + j + 1, true
		case (c == 'K' || c == 'J') && j == 2:
			return start + j + 1, true
		case c == 'A' && semis == 0 && digits > 0 && digits <= 3:
			return start + j + 1, true
		default:
			return 0, true
		}
		if j >= maxCarry {
			return 0, true
		}
	}
	return 0, false
}
