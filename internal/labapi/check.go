// Package labapi is boardbench's lab upload API as both ends see it: the
// wire types of /api/v1 (docs/lab.md), the checks every uploaded document
// passes before it reaches the store (it is a stranger's file), and the
// client that `results push https://LAB` and `run --push` use. It does
// not import net/http: the client speaks through internal/httplite, so
// that a board build can push.
package labapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"boardbench/internal/store"
)

// DefaultMaxUploadBytes bounds an uploaded document unless the server
// says otherwise (serve --max-upload-bytes): 16 MiB, several times a run's
// result with its samples.
const DefaultMaxUploadBytes = 16 << 20

// MaxDepth bounds the nesting of an uploaded document.
const MaxDepth = 64

// Refusal is an upload refused for what it is; Status is the HTTP status
// that says so (400 or 413).
type Refusal struct {
	Status int
	Msg    string
}

func (r *Refusal) Error() string { return r.Msg }

func refuse(format string, args ...any) *Refusal {
	return &Refusal{Status: 400, Msg: fmt.Sprintf(format, args...)}
}

// CheckUpload checks an uploaded document before the store sees it: at
// most maxBytes (413 beyond), one JSON value in valid UTF-8, nested at
// most MaxDepth deep, every number finite (1e999 is refused, as NaN and
// Infinity, which are not JSON, are), no control character in any string
// or name but tab, newline and carriage return (no DEL, no C1 control, no
// bidirectional override or isolate, no line or paragraph separator), and
// a boardbench result this boardbench reads (store.Index: schema version,
// status, field types) whose id is 8 to 64 lowercase hex digits, so that
// its page has a permanent URL. It returns the result's indexed columns.
func CheckUpload(doc []byte, maxBytes int) (store.Record, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxUploadBytes
	}
	if len(doc) > maxBytes {
		return store.Record{}, &Refusal{Status: 413, Msg: fmt.Sprintf("the document has %d bytes; this lab takes at most %d", len(doc), maxBytes)}
	}
	if !utf8.Valid(doc) {
		return store.Record{}, refuse("the document is not valid UTF-8")
	}
	if err := walk(doc); err != nil {
		return store.Record{}, err
	}
	rec, err := store.Index(doc)
	if err != nil {
		return store.Record{}, refuse("not a result this lab takes: %v", err)
	}
	if !store.ValidID(rec.ID) {
		return store.Record{}, refuse("the result's id %q is not 8 to 64 lowercase hexadecimal digits", short(rec.ID))
	}
	return rec, nil
}

// walk reads doc token by token, checking depth, numbers and strings,
// and that nothing follows the one value.
func walk(doc []byte) error {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	depth := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			msg := err.Error()
			if strings.Contains(msg, "invalid character 'N'") || strings.Contains(msg, "invalid character 'I'") {
				msg += " (NaN and Infinity are not numbers JSON has)"
			}
			return refuse("not JSON: %s", msg)
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if depth++; depth > MaxDepth {
					return refuse("the document is nested more than %d deep", MaxDepth)
				}
			default:
				depth--
			}
		case json.Number:
			f, err := strconv.ParseFloat(string(t), 64)
			if err != nil {
				var ne *strconv.NumError
				if errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange) && f != 0 {
					return refuse("a number (%s) is not finite as a 64-bit float", short(string(t)))
				}
				if !(errors.As(err, &ne) && errors.Is(ne.Err, strconv.ErrRange)) {
					return refuse("a number (%s) is malformed", short(string(t)))
				}
			}
		case string:
			if r, ok := badRune(t); ok {
				return refuse("text %q holds the control character U+%04X", short(t), r)
			}
		}
		if depth == 0 && dec.More() {
			return refuse("not JSON: data after the document")
		}
	}
	if depth != 0 {
		return refuse("not JSON: the document ends early")
	}
	return nil
}

// badRune returns the first character of s that text must not hold.
func badRune(s string) (rune, bool) {
	for _, r := range s {
		switch {
		case r == '\t' || r == '\n' || r == '\r':
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
			return r, true
		case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029, r == 0x200e, r == 0x200f, r == 0x061c:
			return r, true
		}
	}
	return 0, false
}

// short keeps a value quoted in a message short and printable.
func short(s string) string {
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	var b strings.Builder
	for _, r := range strings.ToValidUTF8(s, "?") {
		if _, bad := badRune(string(r)); bad || r == '\n' || r == '\r' || r == '\t' {
			r = '?'
		}
		b.WriteRune(r)
	}
	return b.String()
}
