package mdrow

import (
	"slices"
	"testing"
)

func TestKernelArchName(t *testing.T) {
	for _, tc := range []struct{ machine, want string }{
		{"armv7l", "armhf"},
		{"aarch64", "arm64"},
		{"x86_64", "x86_64"},
		{"riscv64", "riscv64"},
		{"", ""},
	} {
		if got := kernelArchName(tc.machine); got != tc.want {
			t.Errorf("kernelArchName(%q) = %q, want %q", tc.machine, got, tc.want)
		}
	}
}

func TestLinkColumnNames(t *testing.T) {
	if want := append(slices.Clone(OldColumnNames), "link"); !slices.Equal(LinkColumnNames, want) {
		t.Errorf("LinkColumnNames = %q, want the old columns and a link: %q", LinkColumnNames, want)
	}
}
