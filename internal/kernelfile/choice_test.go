package kernelfile

import (
	"slices"
	"strings"
	"testing"
)

func TestParseChoice(t *testing.T) {
	cases := []struct {
		in       string
		selected string
		only     string // SelectedOrOnly
		options  []string
	}{
		{"mq-deadline kyber [bfq] none", "bfq", "bfq", []string{"mq-deadline", "kyber", "bfq", "none"}},
		{"[none] mq-deadline", "none", "none", []string{"none", "mq-deadline"}},
		{"none", "", "none", []string{"none"}},
		{"[default] performance powersave powersupersave\n", "default", "default", []string{"default", "performance", "powersave", "powersupersave"}},
		{"always [madvise] never", "madvise", "madvise", []string{"always", "madvise", "never"}},
		{"[lzo-rle] lzo lz4 ", "lzo-rle", "lzo-rle", []string{"lzo-rle", "lzo", "lz4"}},
		{"noop deadline cfq", "", "", []string{"noop", "deadline", "cfq"}},
		{"a [b] [c]", "b", "b", []string{"a", "b", "c"}},
		{"[[x]]", "[x]", "[x]", []string{"[x]"}},
		{"[] x", "", "x", []string{"x"}},
		{"[", "", "[", []string{"["}},
		{"", "", "", nil},
	}
	for _, c := range cases {
		got := ParseChoice(c.in)
		if got.Selected != c.selected || got.SelectedOrOnly() != c.only || !slices.Equal(got.Options, c.options) {
			t.Errorf("ParseChoice(%q) = %+v (or only %q), want %q (%q) %q", c.in, got, got.SelectedOrOnly(), c.selected, c.only, c.options)
		}
	}
}

// FuzzParseChoice checks that the selection is one of the options and that
// no option is empty or holds white space.
func FuzzParseChoice(f *testing.F) {
	for _, s := range []string{"mq-deadline kyber [bfq] none", "[none]", "[", "]", "[[x]]", "a [b] [c]", "[] x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c := ParseChoice(s)
		if c.Selected != "" && !slices.Contains(c.Options, c.Selected) {
			t.Errorf("ParseChoice(%q): selected %q not among %q", s, c.Selected, c.Options)
		}
		if only := c.SelectedOrOnly(); only != "" && !slices.Contains(c.Options, only) {
			t.Errorf("ParseChoice(%q): %q not among %q", s, only, c.Options)
		}
		for _, o := range c.Options {
			if o == "" || strings.ContainsFunc(o, func(r rune) bool { return strings.ContainsRune(" \t\n\v\f\r", r) }) {
				t.Errorf("ParseChoice(%q): bad option %q", s, o)
			}
		}
	})
}
