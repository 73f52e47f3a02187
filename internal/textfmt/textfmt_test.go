package textfmt

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestBytes(t *testing.T) {
	cases := []struct {
		in   int64
		want string
	}{
		{0, "0 B"}, {1023, "1023 B"}, {1024, "1 KiB"}, {1536, "1.5 KiB"},
		{32 << 20, "32 MiB"}, {(1 << 30) + (1 << 29), "1.5 GiB"}, {500 << 30, "500 GiB"},
	}
	for _, c := range cases {
		if got := Bytes(c.in); got != c.want {
			t.Errorf("Bytes(%d) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestTableAligns(t *testing.T) {
	tb := NewTable("CPU", "MHz", "core")
	tb.RightAlign[1] = true
	tb.Row("0", "408", "Cortex-A55")
	tb.Row("10", "2304", "Cortex-A76")
	var b bytes.Buffer
	tb.Write(&b)
	want := "  CPU   MHz  core\n  0     408  Cortex-A55\n  10   2304  Cortex-A76\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestWrap(t *testing.T) {
	cases := []struct {
		in    string
		width int
		want  []string
	}{
		{"", 10, []string{""}},
		{"short", 10, []string{"short"}},
		{"one two three four", 9, []string{"one two", "three", "four"}},
		{"abcdefghijkl", 5, []string{"abcde", "fghij", "kl"}},
		{"a  b", 10, []string{"a  b"}},
		{"ünïcödé wörds hère", 8, []string{"ünïcödé", "wörds", "hère"}},
	}
	for _, c := range cases {
		got := Wrap(c.in, c.width)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("Wrap(%q, %d) = %q, want %q", c.in, c.width, got, c.want)
		}
	}
}

func TestLineAndKVWrap(t *testing.T) {
	var b bytes.Buffer
	w := New(&b, false)
	long := strings.Repeat("word ", 40)
	w.Line("note: %s", long)
	w.KV([2]string{"key", long}, [2]string{"longer key", "short"})
	lines := strings.Split(strings.TrimRight(b.String(), "\n"), "\n")
	if len(lines) < 6 {
		t.Fatalf("expected wrapped lines, got:\n%s", b.String())
	}
	for _, l := range lines {
		if n := utf8.RuneCountInString(l); n > MaxWidth {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
	if !strings.HasPrefix(lines[1], "    word") {
		t.Errorf("Line continuation not indented: %q", lines[1])
	}
	var kv []string
	for _, l := range lines {
		if strings.HasPrefix(l, "  key:") || strings.HasPrefix(l, "              word") {
			kv = append(kv, l)
		}
	}
	if len(kv) < 2 {
		t.Errorf("KV value not wrapped under its column:\n%s", b.String())
	}
}

func TestTableDropsEmptyColumnAndFits(t *testing.T) {
	tb := NewTable("NAME", "STATUS", "DESCRIPTION")
	tb.Wrap[2] = true
	tb.Row("a", "", strings.Repeat("long text ", 15))
	tb.Row("b", "", "short")
	var b bytes.Buffer
	tb.Write(&b)
	out := b.String()
	if strings.Contains(out, "STATUS") {
		t.Errorf("empty column kept:\n%s", out)
	}
	for _, l := range strings.Split(strings.TrimRight(out, "\n"), "\n") {
		if n := utf8.RuneCountInString(l); n > MaxWidth {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
	if !strings.Contains(out, "\n        long text") || !strings.Contains(out, "  b     short") {
		t.Errorf("wrapped cell not aligned under its column:\n%s", out)
	}
}

func TestPluralAndSpread(t *testing.T) {
	cases := []struct{ got, want string }{
		{Plural(1, "phase"), "1 phase"},
		{Plural(0, "phase"), "0 phases"},
		{Plural(3, "sample"), "3 samples"},
		{Plural(2, "entry", "entries"), "2 entries"},
		{Spread(2.54), "±2.5%"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}
