// Package vcmailbox encodes requests to, and decodes answers from, the
// Raspberry Pi firmware's mailbox property interface, which Linux offers
// to programs as the character device /dev/vcio (one ioctl per message;
// package host opens it). Everything here is a pure function of bytes,
// except Client, which asks through a Device it is given.
//
// A message is a sequence of 32-bit words: the message's size in bytes,
// a request/response code (0 in a request, CodeSuccess in a good answer),
// then tags, each {tag id, value buffer size in bytes, request/response
// code, value buffer padded to 4 bytes}, and an end tag 0. The firmware
// answers in the same buffer; a tag it answered has bit 31 of its code set
// and the length of its answer in the other bits. Words are in the CPU's
// byte order, which is little-endian on every Linux a Raspberry Pi runs.
// (Raspberry Pi firmware wiki, "Mailbox property interface";
// docs/monitor.md, "The Raspberry Pi firmware without a process".)
package vcmailbox

import (
	"encoding/binary"
	"fmt"
)

// Message and tag codes.
const (
	// CodeRequest is the code of a message sent to the firmware.
	CodeRequest uint32 = 0x00000000
	// CodeSuccess is the code of a message the firmware answered.
	CodeSuccess uint32 = 0x80000000
	// CodeParseError is the code of a message the firmware could not
	// parse (its answer is partial).
	CodeParseError uint32 = 0x80000001
	// responseBit is set in a tag's code once the firmware answered it.
	responseBit uint32 = 1 << 31
)

// Tags of the property interface that boardbench knows (read-only
// questions). Clock ids of the clock tags: EMMC 2, ARM 3, CORE 4, V3D 5;
// voltage ids: CORE 1, SDRAM_C 2, SDRAM_P 3, SDRAM_I 4.
const (
	// TagEnd ends the tags of a message.
	TagEnd uint32 = 0
	// TagGetClockRate is the rate a clock is set to (clock id → Hz).
	TagGetClockRate uint32 = 0x00030002
	// TagGetVoltage is the voltage the firmware requests (voltage id →
	// µV). It is not what `vcgencmd measure_volts` prints.
	TagGetVoltage uint32 = 0x00030003
	// TagGetTemperature is the SoC temperature (id 0 → millidegrees C).
	TagGetTemperature uint32 = 0x00030006
	// TagGetThrottled is the word `vcgencmd get_throttled` prints.
	TagGetThrottled uint32 = 0x00030046
	// TagGetClockRateMeasured is a clock's measured rate (clock id → Hz).
	TagGetClockRateMeasured uint32 = 0x00030047
	// TagGetGencmdResult runs a firmware "general command" (the text
	// `vcgencmd` takes) and returns its text answer: the value buffer
	// holds an error word, then the command and, after the call, the
	// answer, NUL-terminated. vcgencmd itself asks through this tag.
	TagGetGencmdResult uint32 = 0x00030080
)

const (
	headerBytes    = 8  // size, code
	tagHeaderBytes = 12 // id, value buffer size, code
	endTagBytes    = 4
	// MaxMessageBytes bounds a message, sent or decoded.
	MaxMessageBytes = 8192
	// GencmdBufferBytes is the value buffer of a TagGetGencmdResult tag,
	// as vcgencmd declares it: the error word and up to 1019 bytes of
	// command or answer, then a NUL.
	GencmdBufferBytes = 1024
	// MaxGencmdBytes is the longest command a gencmd message takes.
	MaxGencmdBytes = GencmdBufferBytes - 4 - 1
)

// Error is an error of this package: a malformed message, an answer
// missing or refused.
type Error string

func (e Error) Error() string { return string(e) }

// The errors Decode, Gencmd and Client return (wrapped with details).
const (
	// ErrMalformed is a message that is not a well-formed property
	// message: short, not whole words, a size word that disagrees with
	// its length, a tag running past the end, no end tag.
	ErrMalformed = Error("malformed mailbox message")
	// ErrNotAnswered is a message or tag the firmware left unanswered
	// (an old firmware that does not know the tag, or no firmware).
	ErrNotAnswered = Error("the firmware did not answer")
	// ErrRefused is a message the firmware could not parse.
	ErrRefused = Error("the firmware could not parse the request")
)

// Request is one tag of a request message.
type Request struct {
	// Tag is the tag id.
	Tag uint32
	// Value is the request's value (for gencmd: the error word and the
	// command); it is copied to the start of the value buffer.
	Value []byte
	// BufferBytes is the size of the value buffer, which must hold the
	// answer too; at least len(Value). It is rounded up to whole words
	// in the message, but declared as given.
	BufferBytes int
}

// Response is one tag of an answered message.
type Response struct {
	// Tag is the tag id.
	Tag uint32
	// Answered says the firmware set the tag's response bit.
	Answered bool
	// Len is the answer's length the firmware declared; it may exceed
	// len(Value) when the buffer was too small.
	Len int
	// Value is the whole value buffer as the firmware left it.
	Value []byte
}

// Truncated reports whether the answer was longer than the value buffer.
func (r Response) Truncated() bool { return r.Len > len(r.Value) }

// Word returns the i-th 32-bit word of the answer; an error when the
// answer was shorter or the tag unanswered.
func (r Response) Word(i int) (uint32, error) {
	if !r.Answered {
		return 0, fmt.Errorf("tag %#08x: %w", r.Tag, ErrNotAnswered)
	}
	n := min(r.Len, len(r.Value))
	if i < 0 || 4*i+4 > n {
		return 0, fmt.Errorf("tag %#08x: answer of %d bytes has no word %d: %w", r.Tag, r.Len, i, ErrMalformed)
	}
	return binary.LittleEndian.Uint32(r.Value[4*i:]), nil
}

func pad4(n int) int { return (n + 3) &^ 3 }

// Encode builds a request message of the given tags.
func Encode(reqs ...Request) ([]byte, error) {
	size := headerBytes + endTagBytes
	for _, r := range reqs {
		if r.Tag == TagEnd {
			return nil, fmt.Errorf("tag 0 is the end tag: %w", ErrMalformed)
		}
		if r.BufferBytes < len(r.Value) || r.BufferBytes < 0 {
			return nil, fmt.Errorf("tag %#08x: value of %d bytes does not fit a buffer of %d: %w", r.Tag, len(r.Value), r.BufferBytes, ErrMalformed)
		}
		size += tagHeaderBytes + pad4(r.BufferBytes)
		if size > MaxMessageBytes {
			return nil, fmt.Errorf("message larger than %d bytes: %w", MaxMessageBytes, ErrMalformed)
		}
	}
	msg := make([]byte, size)
	le := binary.LittleEndian
	le.PutUint32(msg[0:], uint32(size))
	le.PutUint32(msg[4:], CodeRequest)
	off := headerBytes
	for _, r := range reqs {
		le.PutUint32(msg[off:], r.Tag)
		le.PutUint32(msg[off+4:], uint32(r.BufferBytes))
		le.PutUint32(msg[off+8:], 0)
		copy(msg[off+tagHeaderBytes:], r.Value)
		off += tagHeaderBytes + pad4(r.BufferBytes)
	}
	le.PutUint32(msg[off:], TagEnd)
	return msg, nil
}

// Decode checks an answered message and returns its tags. A message whose
// code is not CodeSuccess is an error (ErrRefused, ErrNotAnswered or
// ErrMalformed); a tag the firmware did not answer is returned with
// Answered false. Decode never reads outside msg.
func Decode(msg []byte) ([]Response, error) {
	if err := checkSize(msg); err != nil {
		return nil, err
	}
	switch code := binary.LittleEndian.Uint32(msg[4:]); code {
	case CodeSuccess:
	case CodeParseError:
		return nil, ErrRefused
	case CodeRequest:
		return nil, ErrNotAnswered
	default:
		return nil, fmt.Errorf("message code %#08x: %w", code, ErrMalformed)
	}
	return walk(msg)
}

// RequestTags checks a request message (well formed, code CodeRequest,
// every tag inside it) and returns its tags, for a transport that lets
// only some tags through. Never reads outside msg.
func RequestTags(msg []byte) ([]Response, error) {
	if err := checkSize(msg); err != nil {
		return nil, err
	}
	if code := binary.LittleEndian.Uint32(msg[4:]); code != CodeRequest {
		return nil, fmt.Errorf("request code %#08x: %w", code, ErrMalformed)
	}
	return walk(msg)
}

// checkSize checks a message's length against its size word.
func checkSize(msg []byte) error {
	if len(msg) < headerBytes+endTagBytes || len(msg)%4 != 0 || len(msg) > MaxMessageBytes {
		return fmt.Errorf("%d bytes: %w", len(msg), ErrMalformed)
	}
	if size := binary.LittleEndian.Uint32(msg); int64(size) != int64(len(msg)) {
		return fmt.Errorf("size word %d for %d bytes: %w", size, len(msg), ErrMalformed)
	}
	return nil
}

// walk returns the tags of a message whose size was checked, up to its
// end tag.
func walk(msg []byte) ([]Response, error) {
	le := binary.LittleEndian
	var out []Response
	off := headerBytes
	for {
		if off+4 > len(msg) {
			return nil, fmt.Errorf("no end tag: %w", ErrMalformed)
		}
		tag := le.Uint32(msg[off:])
		if tag == TagEnd {
			return out, nil
		}
		if off+tagHeaderBytes > len(msg) {
			return nil, fmt.Errorf("tag %#08x: header runs past the end: %w", tag, ErrMalformed)
		}
		buf := int64(le.Uint32(msg[off+4:]))
		code := le.Uint32(msg[off+8:])
		start := int64(off + tagHeaderBytes)
		if buf > MaxMessageBytes || start+int64(pad4(int(buf))) > int64(len(msg)) {
			return nil, fmt.Errorf("tag %#08x: value buffer of %d bytes runs past the end: %w", tag, buf, ErrMalformed)
		}
		end := start + int64(pad4(int(buf)))
		r := Response{Tag: tag, Value: msg[start : start+buf]}
		if code&responseBit != 0 {
			r.Answered, r.Len = true, int(code&^responseBit)
		}
		out = append(out, r)
		off = int(end)
	}
}

// GencmdText returns the command or answer text of a gencmd tag's value
// buffer: the bytes after the error word up to the first NUL or the end.
func GencmdText(value []byte) string {
	if len(value) < 4 {
		return ""
	}
	text := value[4:]
	for i, c := range text {
		if c == 0 {
			return string(text[:i])
		}
	}
	return string(text)
}

// GencmdRequest builds the message that runs cmd (e.g. "measure_clock
// arm") through TagGetGencmdResult: the error word 0, then cmd and a NUL,
// in a value buffer of GencmdBufferBytes.
func GencmdRequest(cmd string) ([]byte, error) { return gencmdInto(nil, cmd) }

// gencmdMessageBytes is the size of a gencmd message.
const gencmdMessageBytes = headerBytes + tagHeaderBytes + GencmdBufferBytes + endTagBytes

// gencmdInto builds the gencmd message of cmd in buf when it has room
// (else in a new slice) and returns it.
func gencmdInto(buf []byte, cmd string) ([]byte, error) {
	if len(cmd) == 0 || len(cmd) > MaxGencmdBytes {
		return nil, fmt.Errorf("gencmd of %d bytes (1 to %d): %w", len(cmd), MaxGencmdBytes, ErrMalformed)
	}
	for i := 0; i < len(cmd); i++ {
		if cmd[i] == 0 {
			return nil, fmt.Errorf("gencmd %q holds a NUL: %w", cmd, ErrMalformed)
		}
	}
	if cap(buf) < gencmdMessageBytes {
		buf = make([]byte, gencmdMessageBytes)
	}
	msg := buf[:gencmdMessageBytes]
	clear(msg)
	le := binary.LittleEndian
	le.PutUint32(msg[0:], gencmdMessageBytes)
	le.PutUint32(msg[4:], CodeRequest)
	le.PutUint32(msg[8:], TagGetGencmdResult)
	le.PutUint32(msg[12:], GencmdBufferBytes)
	// msg[16:20] is the tag's code, msg[20:24] the error word: both 0.
	copy(msg[24:], cmd)
	// The NUL after cmd and the end tag are the zeros clear left.
	return msg, nil
}

// GencmdError is a gencmd the firmware answered with a non-zero error
// word (vcgencmd exits with that status); Text is what it said.
type GencmdError struct {
	Code uint32
	Text string
}

func (e *GencmdError) Error() string {
	if e.Text == "" {
		return fmt.Sprintf("firmware error %d", e.Code)
	}
	return fmt.Sprintf("firmware error %d: %s", e.Code, e.Text)
}

// GencmdResult returns the text answer of an answered gencmd message: the
// bytes after the error word up to the first NUL or the end of the value
// buffer (vcgencmd prints the same text, with a newline). A non-zero error
// word is a *GencmdError.
func GencmdResult(msg []byte) (string, error) {
	tags, err := Decode(msg)
	if err != nil {
		return "", err
	}
	for _, t := range tags {
		if t.Tag != TagGetGencmdResult {
			continue
		}
		if !t.Answered {
			return "", fmt.Errorf("gencmd tag: %w", ErrNotAnswered)
		}
		// The declared length is not checked: vcgencmd reads the text up
		// to its NUL whatever the length says.
		if len(t.Value) < 4 {
			return "", fmt.Errorf("gencmd value buffer of %d bytes has no error word: %w", len(t.Value), ErrMalformed)
		}
		text := GencmdText(t.Value)
		if code := binary.LittleEndian.Uint32(t.Value); code != 0 {
			return "", &GencmdError{Code: code, Text: text}
		}
		return text, nil
	}
	return "", fmt.Errorf("no gencmd tag in the answer: %w", ErrMalformed)
}
