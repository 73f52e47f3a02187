package redact

import (
	"regexp"
	"strings"
	"testing"
)

func TestText(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"usb serial in the kernel log",
			"[    1.234] usb 1-1: SerialNumber: 000000000000096B\n",
			"[    1.234] usb 1-1: SerialNumber: REDACTED\n"},
		{"two usb serials",
			"usb 1-1: SerialNumber: ABC123\nusb 1-2: SerialNumber: DEF456\n",
			"usb 1-1: SerialNumber: REDACTED\nusb 1-2: SerialNumber: REDACTED\n"},
		{"kernel command line",
			"coherent_pool=1M bcm2708.serial=0x1a2b3c4d smsc95xx.macaddr=DC:A6:32:12:34:56 androidboot.serialno=R58M123 snum=9F8E7D console=serial0,115200",
			"coherent_pool=1M bcm2708.serial=REDACTED smsc95xx.macaddr=dc:a6:32:xx:xx:xx androidboot.serialno=REDACTED snum=REDACTED console=serial0,115200"},
		{"kernel log echoing the command line",
			"[    0.000000] Kernel command line: serial=0xdeadbeef sn=\"X 1\" root=/dev/mmcblk0p2\n",
			"[    0.000000] Kernel command line: serial=REDACTED sn=REDACTED root=/dev/mmcblk0p2\n"},
		{"lsusb -v",
			"  iManufacturer           1 SanDisk\n  iSerial                 3 4C530001231120116532\n",
			"  iManufacturer           1 SanDisk\n  iSerial                 3 REDACTED\n"},
		{"lsusb -v without a serial string", "  iSerial                 0 \n", "  iSerial                 0 \n"},
		{"labelled serial number", "Serial Number: WD-WX12A3456789\n", "Serial Number: REDACTED\n"},
		{"driver banner is not a serial", "[    0.5] Serial: 8250/16550 driver, 4 ports, IRQ sharing enabled\n", "[    0.5] Serial: 8250/16550 driver, 4 ports, IRQ sharing enabled\n"},
		{"serial console driver", "serial8250: ttyS0 at I/O 0x3f8 (irq = 4) is a 16550A\n", "serial8250: ttyS0 at I/O 0x3f8 (irq = 4) is a 16550A\n"},
		{"mac in a log", "brcmfmac: Firmware: BCM4345/6 wl0: ... mac dc:a6:32:01:02:03\n", "brcmfmac: Firmware: BCM4345/6 wl0: ... mac dc:a6:32:xx:xx:xx\n"},
	}
	for _, c := range cases {
		if got := Text(c.in); got != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got, c.want)
		}
	}
}

func TestFileCommandOutputs(t *testing.T) {
	const dir = "/.boardbench/commands/"
	cases := []struct{ path, in, want string }{
		{dir + "dmesg", "usb 1-1: SerialNumber: 0123456789\n", "usb 1-1: SerialNumber: REDACTED\n"},
		{"/proc/cmdline", "bcm2708.serial=0xabcdef01 root=PARTUUID=1\n", "bcm2708.serial=REDACTED root=PARTUUID=1\n"},
		{dir + "vcgencmd_otp_dump", "16:00280000\n28:abcdef01\n29:543210fe\n30:00c03111\n36:11223344\n64:dca63201\n",
			"16:00280000\n28:REDACTED\n29:REDACTED\n30:00c03111\n36:REDACTED\n64:REDACTED\n"},
		{dir + "lsusb_-v", "  iSerial                 3 000000000001\n", "  iSerial                 3 REDACTED\n"},
	}
	for _, c := range cases {
		if got := string(File(c.path, []byte(c.in))); got != c.want {
			t.Errorf("File(%s):\n got %q\nwant %q", c.path, got, c.want)
		}
	}
}

var hexSerial = regexp.MustCompile(`^[0-9a-f]{8,32}$`)

// FuzzText checks that redaction never panics, is idempotent, and hides a
// serial number in the kernel-log and command-line forms whatever text
// surrounds it.
func FuzzText(f *testing.F) {
	f.Add("[    1.0] usb 1-1: New USB device found\n", "000000000000096b")
	f.Add("Kernel command line: console=serial0,115200 root=/dev/mmcblk0p2", "1a2b3c4d")
	f.Add("Serial: 8250/16550 driver\nSerialNumber:", "deadbeef01")
	f.Fuzz(func(t *testing.T, log, serial string) {
		once := Text(log)
		if twice := Text(once); twice != once {
			t.Fatalf("not idempotent: %q → %q → %q", log, once, twice)
		}
		if !hexSerial.MatchString(serial) || strings.Contains(log, serial) {
			return
		}
		in := log + "\n[    2.0] usb 1-1: SerialNumber: " + serial + "\n[    0.0] Kernel command line: bcm2708.serial=0x" + serial + " androidboot.serialno=" + serial + "\n"
		if out := Text(in); strings.Contains(out, serial) {
			t.Fatalf("serial %q survives in %q", serial, out)
		}
	})
}
