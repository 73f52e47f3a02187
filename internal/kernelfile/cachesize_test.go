package kernelfile

import "testing"

func TestParseCacheSize(t *testing.T) {
	good := map[string]int64{
		"32K": 32 << 10, "1024K\n": 1 << 20, " 2048K\n": 2 << 20, "48k": 48 << 10,
		"8M": 8 << 20, "3m": 3 << 20, "1G": 1 << 30, "512": 512, "1048576G": 1 << 50,
	}
	for in, want := range good {
		if got, err := ParseCacheSize(in); err != nil || got != want {
			t.Errorf("ParseCacheSize(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "K", "big", "abc", "0", "0K", "-1K", "1.5M", "1048577G", "99999999999999999G", "32 K"} {
		if v, err := ParseCacheSize(bad); err == nil {
			t.Errorf("ParseCacheSize(%q) = %d, accepted", bad, v)
		}
	}
}

// FuzzParseCacheSize checks that an accepted size is positive and within
// the bound.
func FuzzParseCacheSize(f *testing.F) {
	for _, s := range []string{"32K", "1024K\n", "8M", "512", "9223372036854775807K", "-0", "\x00K"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if v, err := ParseCacheSize(s); err == nil && (v <= 0 || v > maxCacheBytes) {
			t.Fatalf("ParseCacheSize(%q) = %d", s, v)
		}
	})
}
