package network

import (
	"fmt"
	"strings"
	"testing"

	"boardbench/internal/testutil/fixture"
)

func ptr[T any](p *T) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

func TestFixtures(t *testing.T) {
	cases := []struct {
		fixture, name                 string
		typ, driver, bus, device, mac string
		virtual                       bool
		state, carrier, speed, duplex string
		rx, tx                        string
		usbSpeed                      string // "" when not USB
		pcie                          bool
	}{
		{"rpi5", "eth0", "ether", "macb", "platform", "1f00100000.ethernet", "2c:cf:67:xx:xx:xx", false, "up", "true", "1000", "full", "1", "1", "", false},
		{"rpi5", "wlan0", "wlan", "brcmfmac", "SDIO", "mmc1:0001:1", "2c:cf:67:xx:xx:xx", false, "up", "true", "null", "", "1", "4", "", false},
		{"rpi5", "docker0", "bridge", "", "", "", "02:42:1f:xx:xx:xx", true, "down", "null", "null", "", "1", "1", "", false},
		{"n100-minipc", "enp1s0", "ether", "r8169", "PCIe", "0000:01:00.0", "00:e0:4c:xx:xx:xx", false, "up", "true", "1000", "full", "1", "1", "", true},
		{"n100-minipc", "enp2s0", "ether", "igc", "PCIe", "0000:02:00.0", "a8:a1:59:xx:xx:xx", false, "down", "null", "null", "", "4", "4", "", true},
		{"n100-minipc", "enx00e04c680001", "ether", "r8152", "USB", "1-4:1.0", "00:e0:4c:xx:xx:xx", false, "up", "true", "1000", "full", "1", "1", "480", false},
		{"n100-minipc", "wg0", "wireguard", "", "", "", "", true, "unknown", "true", "null", "", "null", "null", "", false},
	}
	infos := map[string]Info{}
	for _, c := range cases {
		t.Run(c.fixture+"/"+c.name, func(t *testing.T) {
			in, ok := infos[c.fixture]
			if !ok {
				in = Collect(fixture.Board(t, c.fixture), true)
				infos[c.fixture] = in
			}
			var i *Interface
			for k := range in.Interfaces {
				if in.Interfaces[k].Name == c.name {
					i = &in.Interfaces[k]
				}
			}
			if i == nil {
				t.Fatalf("not found among %+v", in.Interfaces)
			}
			got := []string{i.Type, i.Driver, i.Bus, i.Device, i.MAC, fmt.Sprint(i.Virtual), i.OperState, ptr(i.Carrier), ptr(i.SpeedMbps), i.Duplex, ptr(i.RxQueues), ptr(i.TxQueues)}
			want := []string{c.typ, c.driver, c.bus, c.device, c.mac, fmt.Sprint(c.virtual), c.state, c.carrier, c.speed, c.duplex, c.rx, c.tx}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("got  %q\nwant %q", got, want)
			}
			if c.usbSpeed == "" && i.USB != nil || c.usbSpeed != "" && (i.USB == nil || ptr(i.USB.SpeedMbps) != c.usbSpeed) {
				t.Errorf("USB = %+v, want speed %q", i.USB, c.usbSpeed)
			}
			if (i.PCIe != nil) != c.pcie {
				t.Errorf("PCIe = %+v, want present %v", i.PCIe, c.pcie)
			}
		})
	}
	pi := infos["rpi5"]
	for _, i := range pi.Interfaces {
		if i.Name == "lo" {
			t.Error("loopback listed")
		}
	}
	if len(pi.Warnings) != 0 {
		t.Errorf("rpi5 warnings = %q", pi.Warnings)
	}
	pc := infos["n100-minipc"]
	if len(pc.Warnings) != 1 || !strings.HasPrefix(pc.Warnings[0], "enx00e04c680001: 1000 Mbit/s network link on a 480 Mbit/s USB connection") {
		t.Errorf("minipc warnings = %q", pc.Warnings)
	}
	// Adapters first, virtual interfaces last.
	if last := pc.Interfaces[len(pc.Interfaces)-1]; last.Name != "wg0" {
		t.Errorf("last interface = %s, want wg0", last.Name)
	}
	raw := Collect(fixture.Board(t, "rpi5"), false)
	if raw.Interfaces[0].MAC != "2c:cf:67:01:02:03" {
		t.Errorf("unredacted MAC = %q", raw.Interfaces[0].MAC)
	}
}

// TestUnreadableValues checks that failing reads (a down interface's
// carrier, an unknown speed, junk) give nulls and never panic.
func TestUnreadableValues(t *testing.T) {
	const base = "/sys/devices/virtual/net/eth9/"
	h := fixture.Host(t, map[string]string{
		base + "speed":            "-1\n",
		base + "duplex":           "unknown\n",
		base + "mtu":              "\x00\x01junk",
		base + "type":             "9999\n",
		base + "address":          "not a mac",
		base + "addr_assign_type": "7",
		base + "operstate":        "down\n",
		// The carrier read fails: a directory stands in for the EINVAL the
		// kernel returns on a down interface.
		base + "carrier/":      "",
		"/sys/class/net/eth9":  "->../../devices/virtual/net/eth9",
		"/sys/class/net/gone0": "->../../devices/virtual/net/gone",
	})
	in := Collect(h, true)
	if len(in.Interfaces) != 2 {
		t.Fatalf("interfaces = %+v", in.Interfaces)
	}
	i := in.Interfaces[0]
	if i.Carrier != nil || i.SpeedMbps != nil || i.Duplex != "" || i.MTU != nil || i.Type != "9999" || i.MACAssignment != "" || i.MAC != "not a mac" {
		t.Errorf("eth9 = %+v", i)
	}
	gone := in.Interfaces[1]
	if gone.Type != "" || gone.OperState != "" || !gone.Virtual {
		t.Errorf("gone0 = %+v", gone)
	}

	empty := fixture.Host(t, nil)
	if in := Collect(empty, true); len(in.Notes) != 1 || in.Interfaces == nil {
		t.Errorf("empty root: %+v", in)
	}
}

func TestLinkNames(t *testing.T) {
	for _, c := range []struct {
		arphrd int64
		want   string
	}{{1, "ether"}, {280, "can"}, {772, "loopback"}, {823, "ip6gre"}, {65534, "none"}, {0, ""}, {32, ""}} {
		if got := arphrdType(c.arphrd); got != c.want {
			t.Errorf("arphrdType(%d) = %q, want %q", c.arphrd, got, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"0", "permanent"}, {"1", "random"}, {"2", "stolen"}, {"3", "set"}, {"4", ""}, {"", ""},
	} {
		if got := assignType(c.in); got != c.want {
			t.Errorf("assignType(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct{ in, want string }{
		{"pci", "PCI"}, {"usb", "USB"}, {"sdio", "SDIO"}, {"amba", "platform"}, {"platform", "platform"},
		{"virtio", "virtio"}, {"spi", "SPI"}, {"vmbus", "Hyper-V"}, {"mdio_bus", ""},
	} {
		if got := busName(c.in); got != c.want {
			t.Errorf("busName(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
