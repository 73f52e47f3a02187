package kernelfile

import "testing"

func TestUnescapeOctal(t *testing.T) {
	cases := []struct{ in, want string }{
		{`/plain`, "/plain"},
		{`/mnt/usb\040ssd`, "/mnt/usb ssd"},
		{`/a\011b`, "/a\tb"},
		{`/x\012y`, "/x\ny"},
		{`/a\134b`, `/a\b`},
		{`/end\040`, "/end "},
		{`\040\040`, "  "},
		{`/a\04`, `/a\04`},   // too short: kept
		{`/a\999`, `/a\999`}, // not octal: kept
		{`/a\400`, `/a\400`}, // beyond a byte: kept
		{`\`, `\`},
		{`/x\012y\`, "/x\ny\\"},
		{``, ``},
	}
	for _, c := range cases {
		if got := unescapeOctal(c.in); got != c.want {
			t.Errorf("unescapeOctal(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
