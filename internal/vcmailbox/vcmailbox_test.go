package vcmailbox

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"
	"testing"
)

// words lays out 32-bit words little-endian, as the firmware reads them.
func words(ws ...uint32) []byte {
	b := make([]byte, 4*len(ws))
	for i, w := range ws {
		binary.LittleEndian.PutUint32(b[4*i:], w)
	}
	return b
}

func TestEncode(t *testing.T) {
	tests := []struct {
		name string
		reqs []Request
		want []byte
	}{
		{"get_throttled", []Request{{Tag: TagGetThrottled, Value: words(0), BufferBytes: 4}},
			words(28, 0, 0x00030046, 4, 0, 0, 0)},
		{"measured ARM clock", []Request{{Tag: TagGetClockRateMeasured, Value: words(3), BufferBytes: 8}},
			words(32, 0, 0x00030047, 8, 0, 3, 0, 0)},
		{"two tags, odd buffer padded", []Request{
			{Tag: TagGetTemperature, Value: words(0), BufferBytes: 8},
			{Tag: TagGetVoltage, Value: words(1), BufferBytes: 5}},
			words(52, 0, 0x00030006, 8, 0, 0, 0, 0x00030003, 5, 0, 1, 0, 0)},
		{"no tags", nil, words(12, 0, 0)},
	}
	for _, tt := range tests {
		got, err := Encode(tt.reqs...)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if !bytes.Equal(got, tt.want) {
			t.Errorf("%s:\n got % x\nwant % x", tt.name, got, tt.want)
		}
	}
}

func TestEncodeRefuses(t *testing.T) {
	tests := []struct {
		name string
		reqs []Request
	}{
		{"end tag as a tag", []Request{{Tag: TagEnd, BufferBytes: 4}}},
		{"value larger than its buffer", []Request{{Tag: TagGetThrottled, Value: words(1, 2), BufferBytes: 4}}},
		{"negative buffer", []Request{{Tag: TagGetThrottled, BufferBytes: -4}}},
		{"too large", []Request{{Tag: TagGetThrottled, BufferBytes: MaxMessageBytes}}},
	}
	for _, tt := range tests {
		if _, err := Encode(tt.reqs...); !errors.Is(err, ErrMalformed) {
			t.Errorf("%s: err = %v, want ErrMalformed", tt.name, err)
		}
	}
}

func TestDecode(t *testing.T) {
	// The firmware's answer to the measured ARM clock: 1.5 GHz.
	msg := words(32, CodeSuccess, 0x00030047, 8, 0x80000008, 3, 1500000000, 0)
	tags, err := Decode(msg)
	if err != nil {
		t.Fatal(err)
	}
	if len(tags) != 1 || tags[0].Tag != TagGetClockRateMeasured || !tags[0].Answered || tags[0].Len != 8 || tags[0].Truncated() {
		t.Fatalf("tags = %+v", tags)
	}
	for i, want := range []uint32{3, 1500000000} {
		if v, err := tags[0].Word(i); err != nil || v != want {
			t.Errorf("word %d = %d, %v; want %d", i, v, err, want)
		}
	}
	if _, err := tags[0].Word(2); !errors.Is(err, ErrMalformed) {
		t.Errorf("word past the answer: err = %v", err)
	}
	if _, err := tags[0].Word(-1); !errors.Is(err, ErrMalformed) {
		t.Errorf("word -1: err = %v", err)
	}

	// An answer longer than the buffer, and a tag left unanswered.
	msg = words(48, CodeSuccess, 0x00030046, 4, 0x80000008, 0x50005, 0x00031234, 4, 0, 7, 0, 0)
	tags, err = Decode(msg)
	if err != nil {
		t.Fatal(err)
	}
	if len(tags) != 2 || !tags[0].Truncated() || tags[1].Answered {
		t.Fatalf("tags = %+v", tags)
	}
	if v, err := tags[0].Word(0); err != nil || v != 0x50005 {
		t.Errorf("truncated answer's first word = %#x, %v", v, err)
	}
	if _, err := tags[1].Word(0); !errors.Is(err, ErrNotAnswered) {
		t.Errorf("unanswered tag: err = %v", err)
	}
}

func TestDecodeMalformed(t *testing.T) {
	tests := []struct {
		name string
		msg  []byte
		want error
	}{
		{"empty", nil, ErrMalformed},
		{"header only", words(8, CodeSuccess), ErrMalformed},
		{"not whole words", append(words(12, CodeSuccess, 0), 0), ErrMalformed},
		{"size word too large", words(16, CodeSuccess, 0), ErrMalformed},
		{"size word too small", words(8, CodeSuccess, 0), ErrMalformed},
		{"still a request", words(12, CodeRequest, 0), ErrNotAnswered},
		{"parse error", words(12, CodeParseError, 0), ErrRefused},
		{"unknown code", words(12, 0x12345678, 0), ErrMalformed},
		{"tag header cut", words(16, CodeSuccess, 0x00030046, 4), ErrMalformed},
		{"value buffer past the end", words(28, CodeSuccess, 0x00030046, 8, 0x80000004, 0, 0), ErrMalformed},
		{"huge value buffer", words(28, CodeSuccess, 0x00030046, 0xffffffff, 0x80000004, 0, 0), ErrMalformed},
		{"no end tag", words(24, CodeSuccess, 0x00030046, 4, 0x80000004, 0), ErrMalformed},
	}
	for _, tt := range tests {
		if _, err := Decode(tt.msg); !errors.Is(err, tt.want) {
			t.Errorf("%s: err = %v, want %v", tt.name, err, tt.want)
		}
	}
}

// TestDecodeNeverPanics feeds every prefix of a good answer, and the
// answer with each word replaced by extreme values, to Decode and
// GencmdResult: each is an answer or an error, never a panic.
func TestDecodeNeverPanics(t *testing.T) {
	good := words(48, CodeSuccess, 0x00030046, 4, 0x80000004, 0x50005, 0x00030047, 8, 0x80000008, 3, 1500000000, 0)
	if _, err := Decode(good); err != nil {
		t.Fatal(err)
	}
	try := func(msg []byte) {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("panic on % x: %v", msg, r)
			}
		}()
		Decode(msg)
		GencmdResult(msg)
	}
	for n := 0; n <= len(good); n++ {
		m := append([]byte(nil), good[:n]...)
		if n >= 4 {
			binary.LittleEndian.PutUint32(m, uint32(n))
		}
		try(m)
	}
	for i := 0; i < len(good)/4; i++ {
		for _, v := range []uint32{0, 1, 3, 0x7fffffff, 0x80000000, 0xffffffff, 0xfffffffc} {
			m := append([]byte(nil), good...)
			binary.LittleEndian.PutUint32(m[4*i:], v)
			try(m)
		}
	}
}

func TestGencmdRequest(t *testing.T) {
	msg, err := GencmdRequest("get_throttled")
	if err != nil {
		t.Fatal(err)
	}
	want := make([]byte, 8+12+1024+4)
	copy(want, words(1048, 0, 0x00030080, 1024, 0, 0))
	copy(want[24:], "get_throttled")
	if !bytes.Equal(msg, want) {
		t.Errorf("message:\n got % x\nwant % x", msg[:48], want[:48])
	}
	tags, err := RequestTags(msg)
	if err != nil || len(tags) != 1 || tags[0].Tag != TagGetGencmdResult || len(tags[0].Value) != 1024 || GencmdText(tags[0].Value) != "get_throttled" {
		t.Errorf("request does not decode as one gencmd tag: %+v, %v", tags, err)
	}
	for _, bad := range []string{"", "a\x00b", strings.Repeat("x", MaxGencmdBytes+1)} {
		if _, err := GencmdRequest(bad); !errors.Is(err, ErrMalformed) {
			t.Errorf("GencmdRequest(%.20q): err = %v", bad, err)
		}
	}
	if _, err := GencmdRequest(strings.Repeat("x", MaxGencmdBytes)); err != nil {
		t.Errorf("longest command refused: %v", err)
	}
}

// answer turns a gencmd request into the firmware's answer: response
// codes set, error word code, text (NUL-terminated when it fits).
func answer(t *testing.T, cmd string, code uint32, text string) []byte {
	t.Helper()
	msg, err := GencmdRequest(cmd)
	if err != nil {
		t.Fatal(err)
	}
	fill(msg, code, text)
	return msg
}

func fill(msg []byte, code uint32, text string) {
	le := binary.LittleEndian
	le.PutUint32(msg[4:], CodeSuccess)
	le.PutUint32(msg[16:], 0x80000000|uint32(4+len(text)+1))
	le.PutUint32(msg[20:], code)
	val := msg[24 : 24+1020]
	clear(val)
	copy(val, text)
}

func TestGencmdResult(t *testing.T) {
	got, err := GencmdResult(answer(t, "get_throttled", 0, "throttled=0x50005"))
	if err != nil || got != "throttled=0x50005" {
		t.Errorf("answer = %q, %v", got, err)
	}
	// A firmware error: the error word and its text.
	_, err = GencmdResult(answer(t, "measure_clock nope", 2, `error=2 error_msg="Invalid arguments"`))
	var ge *GencmdError
	if !errors.As(err, &ge) || ge.Code != 2 || !strings.Contains(ge.Text, "Invalid arguments") {
		t.Errorf("firmware error: err = %v", err)
	}
	// No NUL before the end of the buffer: the text ends with it.
	full := strings.Repeat("y", 1020)
	if got, err := GencmdResult(answer(t, "commands", 0, full)); err != nil || got != full {
		t.Errorf("answer filling the buffer: %d bytes, %v", len(got), err)
	}
	// An old firmware leaves the tag unanswered.
	msg, _ := GencmdRequest("get_throttled")
	binary.LittleEndian.PutUint32(msg[4:], CodeSuccess)
	if _, err := GencmdResult(msg); !errors.Is(err, ErrNotAnswered) {
		t.Errorf("unanswered tag: err = %v", err)
	}
	// An answer without the gencmd tag.
	if _, err := GencmdResult(words(28, CodeSuccess, 0x00030046, 4, 0x80000004, 0, 0)); !errors.Is(err, ErrMalformed) {
		t.Errorf("no gencmd tag: err = %v", err)
	}
	// A gencmd tag whose buffer cannot hold the error word.
	if _, err := GencmdResult(words(24, CodeSuccess, 0x00030080, 0, 0x80000000, 0)); !errors.Is(err, ErrMalformed) {
		t.Errorf("gencmd tag of 0 bytes: err = %v", err)
	}
}

func TestRequestTags(t *testing.T) {
	if _, err := RequestTags(words(28, CodeSuccess, 0x00030046, 4, 0, 0, 0)); !errors.Is(err, ErrMalformed) {
		t.Errorf("an answer as a request: err = %v", err)
	}
	if _, err := RequestTags(words(28, 0, 0x00030046, 8, 0, 0, 0)); !errors.Is(err, ErrMalformed) {
		t.Errorf("value buffer past the end: err = %v", err)
	}
	tags, err := RequestTags(words(28, 0, 0x00030046, 4, 0, 0, 0))
	if err != nil || len(tags) != 1 || tags[0].Tag != TagGetThrottled {
		t.Errorf("tags = %+v, %v", tags, err)
	}
	if GencmdText(nil) != "" || GencmdText([]byte{0, 0, 0, 0, 'a', 'b'}) != "ab" {
		t.Error("GencmdText")
	}
}
