package storagerun

import "testing"

func TestParseSize(t *testing.T) {
	for in, want := range map[string]int64{"100M": 100 << 20, "1G": 1 << 30, "64k": 64 << 10, "4096": 4096, "256MiB": 256 << 20} {
		if got, err := ParseSize(in); err != nil || got != want {
			t.Errorf("ParseSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "x", "-1M", "0"} {
		if _, err := ParseSize(bad); err == nil {
			t.Errorf("ParseSize(%q) accepted", bad)
		}
	}
}
