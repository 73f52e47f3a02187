package kernelfile

import (
	"strings"
	"testing"
)

func TestParsePCIConfigWord(t *testing.T) {
	full := make([]byte, 256)
	copy(full[0x50:], []byte{0xab, 0x37, 0x01, 0x00}) // lspci -xxx "50: ab 37 01 00" → 000137ab
	tests := []struct {
		name   string
		b      []byte
		off    int
		want   uint32
		errHas string
	}{
		{"VL805 version word", full, 0x50, 0x000137ab, ""},
		{"header only (not root)", full[:64], 0x50, 0, "needs root"},
		{"truncated beyond the header", full[:0x52], 0x50, 0, "ends before"},
		{"unaligned", full, 0x51, 0, "not a word offset"},
		{"empty", nil, 0, 0, "needs root"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParsePCIConfigWord(tt.b, tt.off)
			if tt.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errHas) {
					t.Fatalf("err = %v, want %q", err, tt.errHas)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("got %#x, %v; want %#x", got, err, tt.want)
			}
		})
	}
}

func TestParseCell32AndString(t *testing.T) {
	if v, ok := ParseCell32([]byte{0x5d, 0x77, 0x7d, 0xee}); !ok || v != 1568112110 {
		t.Errorf("ParseCell32 = %d, %v", v, ok)
	}
	for _, b := range [][]byte{nil, {1, 2, 3}, {1, 2, 3, 4, 5}} {
		if _, ok := ParseCell32(b); ok {
			t.Errorf("ParseCell32(%v) accepted", b)
		}
	}
	strs := []struct {
		in   string
		want string
		ok   bool
	}{
		{"c305221a\x00", "c305221a", true},
		{"abc", "abc", true},
		{"\x00", "", false},
		{"a\x1bb\x00", "", false},
		{"", "", false},
	}
	for _, tt := range strs {
		got, ok := ParseString([]byte(tt.in))
		if got != tt.want || ok != tt.ok {
			t.Errorf("ParseString(%q) = %q, %v", tt.in, got, ok)
		}
	}
}
