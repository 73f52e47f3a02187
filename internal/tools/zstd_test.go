package tools

import (
	"os"
	"testing"
)

func TestParseZstdVersion(t *testing.T) {
	here, err := os.ReadFile("testdata/zstd-1.5.4-version.txt")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, out, version string
		ok                 bool
	}{
		{"Debian 12's zstd, as printed here", string(here), "1.5.4", true},
		{"zstd 1.3.8's banner", "*** zstd command line interface 64-bits v1.3.8, by Yann Collet ***\n", "1.3.8", true},
		{"32-bit build", "*** Zstandard CLI (32-bit) v1.5.6, by Yann Collet ***", "1.5.6", true},
		{"another program", "*** frobnicate v1.2.3 ***\n", "", false},
		{"no banner", "zstd: unknown option\n", "", false},
		{"empty", "", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := ParseZstdVersion(tc.out)
			if ok != tc.ok || got.Version != tc.version {
				t.Fatalf("ParseZstdVersion = %q, %v; want %q, %v", got.Version, ok, tc.version, tc.ok)
			}
			if ok && (got.Flavor != FlavorZstd || got.VersionLine == "") {
				t.Errorf("flavor %q, line %q", got.Flavor, got.VersionLine)
			}
		})
	}
}
