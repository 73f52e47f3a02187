package iostreams

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// hostile holds what a stranger's board name may carry: an OSC title
// change, an OSC 52 clipboard write, a screen clear, a bell, DEL, a raw
// 8-bit CSI byte, C1 controls in UTF-8 and a right-to-left override.
const hostile = "Pi\x1b]0;owned\x07\x1b]52;c;cm0gLXJmIH4=\x1b\\\x1b[2J\x1bc\x7f\x9b2J\u009b\u0085\u202eevil\r\x00"

func TestSanitizer(t *testing.T) {
	tests := []struct {
		name   string
		term   bool
		writes []string
		want   string
	}{
		{name: "plain text passes", writes: []string{"board: Raspberry Pi 4 — 1.8 GHz, 45 °C\n\tindented\n"},
			want: "board: Raspberry Pi 4 — 1.8 GHz, 45 °C\n\tindented\n"},
		{name: "hostile on a pipe", writes: []string{hostile},
			want: `Pi\u001b]0;owned\u0007\u001b]52;c;cm0gLXJmIH4=\u001b\\u001b[2J\u001bc\u007f` + "\uFFFD2J" + `\u009b\u0085\u202eevil\u000d\u0000`},
		{name: "hostile on a terminal", term: true, writes: []string{hostile},
			want: `Pi\u001b]0;owned\u0007\u001b]52;c;cm0gLXJmIH4=\u001b\\u001b[2J\u001bc\u007f` + "\uFFFD2J" + `\u009b\u0085\u202eevil\u000d\u0000`},
		{name: "own drawing on a terminal", term: true, writes: []string{"\x1b[1mTitle\x1b[0m\n\x1b[1;31mbad\x1b[0m\n\r\x1b[Kstatus\x1b[3A\r\x1b[J"},
			want: "\x1b[1mTitle\x1b[0m\n\x1b[1;31mbad\x1b[0m\n\r\x1b[Kstatus\x1b[3A\r\x1b[J"},
		{name: "own drawing on a pipe", writes: []string{"\x1b[1mTitle\x1b[0m\n"},
			want: `\u001b[1mTitle\u001b[0m` + "\n"},
		{name: "split character and sequence joined", term: true, writes: []string{"caf\xc3", "\xa9 \x1b[1", "mx\x1b", "[0m"},
			want: "café \x1b[1mx\x1b[0m"},
		{name: "split C1 joined", writes: []string{"a\xc2", "\x9bb"}, want: `a\u009bb`},
		{name: "invalid bytes", writes: []string{"a\xff\xfeb\n"}, want: "a\uFFFD\uFFFDb\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			s := NewSanitizer(&buf, func() bool { return tc.term })
			for _, w := range tc.writes {
				if n, err := s.Write([]byte(w)); err != nil || n != len(w) {
					t.Fatalf("Write = %d, %v", n, err)
				}
			}
			if got := buf.String(); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

// TestSanitizerKeepsJSON: a JSON document (the store's raw document, in
// which encoding/json leaves DEL and C1 raw) stays valid JSON through the
// Sanitizer, with the same text once decoded.
func TestSanitizerKeepsJSON(t *testing.T) {
	name := "Pi\x7f\u009b2J\u202eevil"
	doc, _ := json.Marshal(map[string]string{"board": name})
	var buf bytes.Buffer
	NewSanitizer(&buf, nil).Write(doc)
	var back map[string]string
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || back["board"] != name {
		t.Errorf("%s: decoded %q, %v", buf.Bytes(), back["board"], err)
	}
	if strings.ContainsAny(buf.String(), "\x7f\u009b\u202e") {
		t.Errorf("controls left in %q", buf.String())
	}
}

// TestStreamsSanitize: the streams commands write to escape control
// characters; RawOut is the buffer itself.
func TestStreamsSanitize(t *testing.T) {
	ios, out, errOut := Test()
	ios.Out.Write([]byte("a\x1b]0;t\x07\n"))
	ios.ErrOut.Write([]byte("b\x1b[2J\n"))
	ios.RawOut().Write([]byte("\x1b[1m"))
	if out.String() != "a\\u001b]0;t\\u0007\n\x1b[1m" || errOut.String() != "b\\u001b[2J\n" {
		t.Errorf("stdout %q, stderr %q", out, errOut)
	}
}
