package buses

import (
	"testing"
)

func TestParseLinkSpeed(t *testing.T) {
	cases := []struct {
		in  string
		gts float64
		ok  bool
		gen int
	}{
		{"2.5 GT/s PCIe", 2.5, true, 1},
		{"5.0 GT/s PCIe", 5, true, 2},
		{"5 GT/s", 5, true, 2},
		{"8.0 GT/s PCIe\n", 8, true, 3},
		{"16.0 GT/s PCIe", 16, true, 4},
		{"32.0 GT/s PCIe", 32, true, 5},
		{"64.0 GT/s PCIe", 64, true, 6},
		{"Unknown", 0, false, 0},
		{"Unknown speed", 0, false, 0},
		{"GT/s", 0, false, 0},
		{"-5 GT/s", 0, false, 0},
		{"NaN GT/s", 0, false, 0},
		{"", 0, false, 0},
	}
	for _, c := range cases {
		v, ok := ParseLinkSpeed(c.in)
		if v != c.gts || ok != c.ok {
			t.Errorf("ParseLinkSpeed(%q) = %v %v, want %v %v", c.in, v, ok, c.gts, c.ok)
		}
		if ok && LinkGeneration(v) != c.gen {
			t.Errorf("LinkGeneration(%v) = %d, want %d", v, LinkGeneration(v), c.gen)
		}
	}
	if LinkGeneration(3) != 0 {
		t.Error("LinkGeneration(3) should be unknown")
	}
}

func TestParseUSBSpeed(t *testing.T) {
	cases := []struct {
		in   string
		mbps float64
		ok   bool
		name string
	}{
		{"1.5", 1.5, true, "Low Speed"},
		{"12\n", 12, true, "Full Speed"},
		{"480", 480, true, "High Speed"},
		{"5000", 5000, true, "SuperSpeed"},
		{"10000", 10000, true, "SuperSpeed+"},
		{"20000", 20000, true, "SuperSpeed+ 20Gbps"},
		{"40000", 40000, true, ""},
		{"unknown", 0, false, ""},
		{"0", 0, false, ""},
		{"-480", 0, false, ""},
		{"Inf", 0, false, ""},
	}
	for _, c := range cases {
		v, ok := ParseUSBSpeed(c.in)
		if v != c.mbps || ok != c.ok || ok && USBSpeedName(v) != c.name {
			t.Errorf("ParseUSBSpeed(%q) = %v %v %q, want %v %v %q", c.in, v, ok, USBSpeedName(v), c.mbps, c.ok, c.name)
		}
	}
	if got := FormatUSBSpeed(1.5); got != "1.5 Mbit/s" {
		t.Errorf("FormatUSBSpeed(1.5) = %q", got)
	}
}

func TestParseHexID(t *testing.T) {
	cases := []struct {
		in, id string
		v      uint64
		ok     bool
	}{
		{"0x144D\n", "0x144d", 0x144d, true},
		{"174c", "0x174c", 0x174c, true},
		{"0x010802", "0x010802", 0x010802, true},
		{"0x", "", 0, false},
		{"0xZZ", "", 0, false},
		{"", "", 0, false},
	}
	for _, c := range cases {
		id, v, ok := ParseHexID(c.in)
		if id != c.id || v != c.v || ok != c.ok {
			t.Errorf("ParseHexID(%q) = %q %x %v", c.in, id, v, ok)
		}
	}
}

func TestPCIClassName(t *testing.T) {
	cases := map[uint64]string{
		0x010802: "NVMe controller",
		0x010601: "SATA controller",
		0x020000: "Ethernet controller",
		0x028000: "Network controller (usually Wi-Fi)",
		0x0c0330: "USB controller (xHCI)",
		0x0c0320: "USB controller (EHCI)",
		0x060400: "PCI bridge",
		0x048000: "Multimedia controller",
		0xff0000: "",
	}
	for class, want := range cases {
		if got := PCIClassName(class); got != want {
			t.Errorf("PCIClassName(%#06x) = %q, want %q", class, got, want)
		}
	}
}

func TestUSBParentAndOrder(t *testing.T) {
	parents := map[string]string{"usb2": "", "2-1": "usb2", "2-1.4": "2-1", "2-1.4.3": "2-1.4", "junk": ""}
	for in, want := range parents {
		if got := usbParent(in); got != want {
			t.Errorf("usbParent(%q) = %q, want %q", in, got, want)
		}
	}
	if !usbPathLess("1-1.2", "1-1.10") || usbPathLess("1-1.10", "1-1.2") || !usbPathLess("1-1", "1-1.1") {
		t.Error("usbPathLess orders ports wrongly")
	}
}

func FuzzParseLinkSpeed(f *testing.F) {
	for _, s := range []string{"8.0 GT/s PCIe", "Unknown", "2.5 GT/s", "1e400 GT/s", "0x10 GT/s"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := ParseLinkSpeed(s)
		if ok && (v <= 0 || v > 1e6) {
			t.Errorf("ParseLinkSpeed(%q) = %v, ok", s, v)
		}
		if !ok && v != 0 {
			t.Errorf("ParseLinkSpeed(%q) = %v, not ok", s, v)
		}
		_ = LinkGeneration(v)
	})
}

func FuzzParseUSBSpeed(f *testing.F) {
	for _, s := range []string{"480", "1.5", "5000\n", "-1", "NaN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		v, ok := ParseUSBSpeed(s)
		if ok && (v <= 0 || v > 1e7) {
			t.Errorf("ParseUSBSpeed(%q) = %v, ok", s, v)
		}
		_ = USBSpeedName(v)
		_ = FormatUSBSpeed(v)
	})
}

func TestPCIVendorName(t *testing.T) {
	for _, c := range []struct {
		id   uint64
		want string
	}{
		{0x1de4, "Raspberry Pi"},
		{0x144d, "Samsung"},
		{0xc0a9, "Micron/Crucial"},
		{0x8086, "Intel"},
		{0x0000, ""},
		{0xffff, ""},
	} {
		if got := PCIVendorName(c.id); got != c.want {
			t.Errorf("PCIVendorName(%#04x) = %q, want %q", c.id, got, c.want)
		}
	}
}
