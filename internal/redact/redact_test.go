package redact

import "testing"

func TestMAC(t *testing.T) {
	cases := []struct{ in, want string }{
		{"dc:a6:32:12:34:56", "dc:a6:32:xx:xx:xx"},
		{"link/ether DC-A6-32-12-34-56 brd", "link/ether dc-a6-32-xx-xx-xx brd"},
		{"no mac here 12:34", "no mac here 12:34"},
	}
	for _, c := range cases {
		if got := MAC(c.in); got != c.want {
			t.Errorf("MAC(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestFile(t *testing.T) {
	cases := []struct{ path, in, want string }{
		{"/sys/block/mmcblk0/device/serial", "0x1234abcd\n", "REDACTED\n"},
		{"/proc/device-tree/serial-number", "10000000abcdef\x00", "REDACTED\x00"},
		{"/proc/cpuinfo", "Hardware\t: BCM2835\nSerial\t\t: 10000000abcdef01\nModel\t: x\n", "Hardware\t: BCM2835\nSerial\t\t: REDACTED\nModel\t: x\n"},
		{"/sys/class/net/eth0/address", "dc:a6:32:12:34:56\n", "dc:a6:32:xx:xx:xx\n"},
		{"/sys/block/sda/device/model", "Ultra Fit\n", "Ultra Fit\n"},
		{"/sys/block/mmcblk0/device/serial", "", ""},
		{"/sys/devices/platform/axi/1000120000.pcie/1f00200000.usb/xhci-hcd.0/usb1/serial", "xhci-hcd.0\n", "xhci-hcd.0\n"},
		{"/sys/devices/platform/axi/1000120000.pcie/1f00200000.usb/xhci-hcd.0/usb1/1-1/serial", "4C530001\n", "REDACTED\n"},
	}
	for _, c := range cases {
		if got := string(File(c.path, []byte(c.in))); got != c.want {
			t.Errorf("File(%q) = %q, want %q", c.path, got, c.want)
		}
	}
}

func TestSerialFile(t *testing.T) {
	for _, c := range []struct {
		name string
		want bool
	}{
		{"serial", true},
		{"serial_number", true},
		{"serial-number", true},
		{"product_uuid", true},
		{"machine-id", true},
		{"cid", true},
		{"nguid", true},
		{"model", false},
		{"serials", false},
		{"", false},
	} {
		if got := serialFile(c.name); got != c.want {
			t.Errorf("serialFile(%q) = %v, want %v", c.name, got, c.want)
		}
	}
}
