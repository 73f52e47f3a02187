// Package safejson encodes JSON that never fails on a float that is not a
// finite number, and that carries no control character a terminal acts
// on. encoding/json refuses NaN and ±Inf ("json: unsupported
// value: +Inf"), so one such value anywhere in a result (a broken meter, a
// division by zero) would lose the whole document. Here every non-finite
// float is written as null — JSON's "unknown" — and reported by its path,
// so the caller can say so in a note. The value encoded is left as it was.
//
// encoding/json escapes the C0 control characters in strings (ESC as
// \u001b) but writes DEL, the C1 controls (U+0080–U+009F) and the
// bidirectional overrides raw; here they are escaped too (\u007f,
// \u009b, \u202e), so that a document printed to a terminal, or read in
// one, cannot act on it.
package safejson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Options shape the encoding.
type Options struct {
	// Indent is the indentation of each level; "" writes compact JSON.
	Indent string
	// NoEscapeHTML leaves <, > and & as they are (encoding/json escapes
	// them by default).
	NoEscapeHTML bool
}

// Marshal returns the JSON encoding of v (without a final newline). Where
// v holds a float that is NaN or ±Inf, that value is written as null and
// its path (e.g. "phases[2].samples[5].power_w (+Inf)") is returned in
// nulled; encoding/json's error is never returned for it. In the common
// case — no such float — the output is byte for byte encoding/json's and
// v is walked only by encoding/json.
func Marshal(v any, o Options) (data []byte, nulled []string, err error) {
	data, err = encode(v, o)
	var uv *json.UnsupportedValueError
	if err == nil || !errors.As(err, &uv) {
		return data, nil, err
	}
	s := &scrubber{}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return data, nil, err
	}
	// Work on an addressable copy of the top value, so that fields can be
	// set (and put back) whether v is a pointer or a value.
	top := reflect.New(rv.Type()).Elem()
	top.Set(rv)
	s.walk(top, "")
	defer s.restore()
	data, err = encode(top.Interface(), o)
	if err != nil {
		return nil, nil, err
	}
	if s.sentinels {
		data = replaceSentinels(data)
	}
	return data, s.paths, nil
}

// Encode writes v to w as Marshal encodes it, followed by a newline, like
// json.Encoder.Encode (monitor --json, cmdutil.WriteJSON).
func Encode(w io.Writer, v any, o Options) error {
	data, _, err := Marshal(v, o)
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

func encode(v any, o Options) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(!o.NoEscapeHTML)
	enc.SetIndent("", o.Indent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return escapeControls(bytes.TrimSuffix(buf.Bytes(), []byte("\n"))), nil
}

// escapeControls escapes DEL, the C1 controls and the bidirectional
// overrides and isolates, which valid JSON can only hold inside strings,
// as \uXXXX.
func escapeControls(data []byte) []byte {
	if bytes.IndexByte(data, 0x7f) < 0 && bytes.IndexByte(data, 0xc2) < 0 && bytes.IndexByte(data, 0xe2) < 0 {
		return data
	}
	out := make([]byte, 0, len(data)+16)
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == 0x7f || (r >= 0x80 && r <= 0x9f) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) {
			out = append(out, fmt.Sprintf("\\u%04x", r)...)
		} else {
			out = append(out, data[i:i+size]...)
		}
		i += size
	}
	return out
}

// Sentinels stand for a non-finite float in a field that cannot be null (a
// plain float64): the field is set to the sentinel for the encoding, and
// the sentinel's literal is then replaced by null in the output. They are
// values no measurement takes.
const (
	sentinel64 = -1.4142135623730951e+307
	sentinel32 = float32(-1.4142135e+38)
)

// scrubber sets the non-finite floats it finds to null (pointers,
// interfaces) or to a sentinel (plain floats), remembering how to put each
// value back.
type scrubber struct {
	paths     []string
	undo      []func()
	sentinels bool
	depth     int
}

// maxDepth bounds the walk as encoding/json bounds its own (a cycle
// fails there first).
const maxDepth = 1000

// restore puts every changed value back, inner values first.
func (s *scrubber) restore() {
	for _, f := range s.undo {
		f()
	}
	s.undo = nil
}

func nonFinite(f float64) bool { return math.IsNaN(f) || math.IsInf(f, 0) }

func (s *scrubber) note(path string, f float64) {
	if path == "" {
		path = "(value)"
	}
	s.paths = append(s.paths, fmt.Sprintf("%s (%s)", path, strconv.FormatFloat(f, 'g', -1, 64)))
}

func isFloat(k reflect.Kind) bool { return k == reflect.Float32 || k == reflect.Float64 }

// walk visits v, which must be settable, and returns whether it changed
// anything below it.
func (s *scrubber) walk(v reflect.Value, path string) bool {
	if s.depth >= maxDepth {
		return false
	}
	s.depth++
	defer func() { s.depth-- }()
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		f := v.Float()
		if !nonFinite(f) || !v.CanSet() {
			return false
		}
		s.note(path, f)
		old := reflect.ValueOf(v.Interface())
		if v.Kind() == reflect.Float32 {
			v.SetFloat(float64(sentinel32))
		} else {
			v.SetFloat(sentinel64)
		}
		s.sentinels = true
		s.undo = append(s.undo, func() { v.Set(old) })
		return true
	case reflect.Pointer:
		if v.IsNil() {
			return false
		}
		e := v.Elem()
		if isFloat(e.Kind()) {
			if f := e.Float(); nonFinite(f) && v.CanSet() {
				s.note(path, f)
				old := reflect.ValueOf(v.Interface())
				v.Set(reflect.Zero(v.Type()))
				s.undo = append(s.undo, func() { v.Set(old) })
				return true
			}
			return false
		}
		return s.walk(e, path)
	case reflect.Interface:
		if v.IsNil() || !v.CanSet() {
			return false
		}
		e := v.Elem()
		if isFloat(e.Kind()) {
			if f := e.Float(); nonFinite(f) {
				s.note(path, f)
				old := reflect.ValueOf(v.Interface())
				v.Set(reflect.Zero(v.Type()))
				s.undo = append(s.undo, func() { v.Set(old) })
				return true
			}
			return false
		}
		return s.walkCopy(e, path, func(c reflect.Value) { v.Set(c) })
	case reflect.Struct:
		t := v.Type()
		changed := false
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() && !f.Anonymous {
				continue
			}
			name, skip := fieldName(f)
			if skip {
				continue
			}
			p := path
			if !(f.Anonymous && name == "") {
				if name == "" {
					name = f.Name
				}
				p = join(path, name)
			}
			if s.walk(v.Field(i), p) {
				changed = true
			}
		}
		return changed
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return false // []byte, json.RawMessage: bytes, not floats
		}
		changed := false
		for i := range v.Len() {
			if s.walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i)) {
				changed = true
			}
		}
		return changed
	case reflect.Map:
		changed := false
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int {
			return strings.Compare(fmt.Sprint(a.Interface()), fmt.Sprint(b.Interface()))
		})
		for _, k := range keys {
			p := join(path, fmt.Sprint(k.Interface()))
			e := v.MapIndex(k)
			if s.walkCopy(e, p, func(c reflect.Value) { v.SetMapIndex(k, c) }) {
				changed = true
			}
		}
		return changed
	}
	return false
}

// walkCopy walks a copy of a value that cannot be set in place (a map
// entry, an interface's content); when something changed, set puts the
// copy in its place, and puts it back again after the inner values were
// restored.
func (s *scrubber) walkCopy(e reflect.Value, path string, set func(reflect.Value)) bool {
	if e.Kind() == reflect.Interface && !e.IsNil() && isFloat(e.Elem().Kind()) {
		// A map[string]any entry holding a float.
		if f := e.Elem().Float(); nonFinite(f) {
			s.note(path, f)
			old := reflect.ValueOf(e.Interface())
			set(reflect.Zero(e.Type()))
			s.undo = append(s.undo, func() { set(old) })
			return true
		}
		return false
	}
	c := reflect.New(e.Type()).Elem()
	c.Set(e)
	if !s.walk(c, path) {
		return false
	}
	orig := reflect.ValueOf(e.Interface())
	if e.Kind() == reflect.Interface {
		orig = e
	}
	set(c)
	s.undo = append(s.undo, func() { set(orig) })
	return true
}

// fieldName returns a struct field's JSON name ("" for none given) and
// whether encoding/json leaves it out ("-").
func fieldName(f reflect.StructField) (string, bool) {
	tag := f.Tag.Get("json")
	if tag == "-" {
		return "", true
	}
	name, _, _ := bytes.Cut([]byte(tag), []byte(","))
	return string(name), false
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// replaceSentinels replaces the sentinels' literals outside strings by
// null.
func replaceSentinels(data []byte) []byte {
	lits := [][]byte{}
	for _, v := range []any{sentinel64, sentinel32} {
		b, _ := json.Marshal(v)
		lits = append(lits, b)
	}
	out := make([]byte, 0, len(data))
	inString, escaped := false, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			out = append(out, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if c == '"' {
			inString = true
			out = append(out, c)
			continue
		}
		replaced := false
		if c == '-' && (i == 0 || !numberByte(data[i-1])) {
			for _, lit := range lits {
				end := i + len(lit)
				if bytes.HasPrefix(data[i:], lit) && (end == len(data) || !numberByte(data[end])) {
					out = append(out, "null"...)
					i = end - 1
					replaced = true
					break
				}
			}
		}
		if !replaced {
			out = append(out, c)
		}
	}
	return out
}

func numberByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '-' || c == '+'
}
