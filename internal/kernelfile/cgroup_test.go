package kernelfile

import (
	"slices"
	"testing"
)

func TestParseCgroup2Path(t *testing.T) {
	cases := []struct {
		in, want string
		ok       bool
	}{
		{"0::/user.slice/user-1000.slice/session-2.scope\n", "/user.slice/user-1000.slice/session-2.scope", true},
		{"12:cpu,cpuacct:/\n1:name=systemd:/init.scope\n0::/init.scope\n", "/init.scope", true}, // hybrid
		{"0::/\n", "/", true},
		{"12:cpu,cpuacct:/\n1:name=systemd:/\n", "", false}, // v1 only
		{"0::relative\n", "", false},
		{"0::/a/../b\n", "", false},
		{"", "", false},
	}
	for _, c := range cases {
		if got, ok := ParseCgroup2Path([]byte(c.in)); got != c.want || ok != c.ok {
			t.Errorf("ParseCgroup2Path(%q) = %q, %v", c.in, got, ok)
		}
	}
}

func TestParseCgroupProcs(t *testing.T) {
	if got := ParseCgroupProcs([]byte("1234\n5678\n0\n-1\nx\n\n")); !slices.Equal(got, []int{1234, 5678}) {
		t.Errorf("ParseCgroupProcs = %v", got)
	}
	if got := ParseCgroupProcs(nil); got != nil {
		t.Errorf("ParseCgroupProcs(nil) = %v", got)
	}
}

func TestParseCgroupMemoryMax(t *testing.T) {
	for _, tc := range []struct {
		in              string
		want            int64
		limited, wantOK bool
	}{
		{"max\n", 0, false, true},
		{"67108864\n", 67108864, true, true},
		{"0", 0, true, true},
		{"", 0, false, false},
		{"-1\n", 0, false, false},
		{"12M\n", 0, false, false},
		{"99999999999999999999\n", 0, false, false},
	} {
		v, limited, ok := ParseCgroupMemoryMax([]byte(tc.in))
		if v != tc.want || limited != tc.limited || ok != tc.wantOK {
			t.Errorf("ParseCgroupMemoryMax(%q) = %d, %v, %v; want %d, %v, %v", tc.in, v, limited, ok, tc.want, tc.limited, tc.wantOK)
		}
	}
}
