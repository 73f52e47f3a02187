package kernelfile

import (
	"bytes"
	"compress/gzip"
	"reflect"
	"slices"
	"testing"
)

func TestParseCPUList(t *testing.T) {
	cases := []struct {
		in   string
		want []int
		ok   bool
	}{
		{"0-3,6\n", []int{0, 1, 2, 3, 6}, true}, // online, *_list
		{"0 1 2 3", []int{0, 1, 2, 3}, true},    // related_cpus
		{"4", []int{4}, true},
		{"", []int{}, true},
		{"3,1-2,1", []int{1, 2, 3}, true},
		{"3-1", nil, false},
		{"0-", nil, false},
		{"x", nil, false},
		{"65536", nil, false},
		{"0-3:2/4", nil, false}, // cpuset stride
	}
	for _, c := range cases {
		got, err := ParseCPUList(c.in)
		if (err == nil) != c.ok || c.ok && !slices.Equal(got, c.want) {
			t.Errorf("ParseCPUList(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
}

func TestParseMMStat(t *testing.T) {
	cases := []struct {
		in   string
		want MMStat
		ok   bool
	}{
		{"  4096  74  12288  0  12288  0  0  0  0\n", MMStat{4096, 74, 12288}, true},
		{"1 2 3", MMStat{1, 2, 3}, true},
		{"1 2", MMStat{}, false},
		{"1 -2 3", MMStat{}, false},
		{"a b c", MMStat{}, false},
	}
	for _, c := range cases {
		if got, ok := ParseMMStat(c.in); got != c.want || ok != c.ok {
			t.Errorf("ParseMMStat(%q) = %+v, %v", c.in, got, ok)
		}
	}
}

func TestParseUevent(t *testing.T) {
	got := ParseUevent("INTERFACE=wlan0\nIFINDEX=3\nDEVTYPE=wlan\n  \nnoequals\n=x\nDEVTYPE=bridge\n")
	want := map[string]string{"INTERFACE": "wlan0", "IFINDEX": "3", "DEVTYPE": "bridge"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseUevent = %v, want %v", got, want)
	}
}

func TestParseAvailable(t *testing.T) {
	if got := ParseAvailable("conservative ondemand userspace powersave performance schedutil \n"); !slices.Equal(got,
		[]string{"conservative", "ondemand", "userspace", "powersave", "performance", "schedutil"}) {
		t.Errorf("ParseAvailable = %q", got)
	}
	if got := ParseFrequencies("528000000 1068000000 x -5 0 1560000000\n"); !slices.Equal(got, []int64{528000000, 1068000000, 1560000000}) {
		t.Errorf("ParseFrequencies = %v", got)
	}
	if got := ParseFrequencies(""); got != nil {
		t.Errorf("ParseFrequencies(\"\") = %v", got)
	}
}

func TestParseStringList(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"raspberrypi,4-model-b\x00brcm,bcm2711\x00", []string{"raspberrypi,4-model-b", "brcm,bcm2711"}},
		{"linux,dummy-virt\x00", []string{"linux,dummy-virt"}},
		{"a\x00\x00b", []string{"a", "b"}},
		{"", nil},
	}
	for _, c := range cases {
		if got := ParseStringList([]byte(c.in)); !slices.Equal(got, c.want) {
			t.Errorf("ParseStringList(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseConfigGz(t *testing.T) {
	text := "#\n# Automatically generated file; DO NOT EDIT.\nCONFIG_ARCH_ROCKCHIP=y\nCONFIG_NR_CPUS=8\n" +
		"CONFIG_LOCALVERSION=\"-rockchip\"\n# CONFIG_FOO is not set\n  CONFIG_BAR=m  \nnot a line\n"
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	zw.Write([]byte(text))
	zw.Close()
	got, err := ParseConfigGz(buf.Bytes(), nil)
	want := map[string]string{"CONFIG_ARCH_ROCKCHIP": "y", "CONFIG_NR_CPUS": "8", "CONFIG_LOCALVERSION": `"-rockchip"`,
		"CONFIG_FOO": "n", "CONFIG_BAR": "m"}
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("ParseConfigGz = %v, %v; want %v", got, err, want)
	}
	if _, err := ParseConfigGz([]byte("CONFIG_X=y\n"), nil); err == nil {
		t.Error("ParseConfigGz of plain text: no error")
	}
	if _, err := ParseConfigGz(buf.Bytes()[:buf.Len()/2], nil); err == nil {
		t.Error("ParseConfigGz of a truncated file: no error")
	}
}
