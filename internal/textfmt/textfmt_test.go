package textfmt

import (
	"bytes"
	"testing"
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
