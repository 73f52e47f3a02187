package buses

import (
	"reflect"
	"strings"
	"testing"

	"boardbench/internal/redact"
	"boardbench/internal/testutil/fixture"
)

func findPCI(in Info, addr string) *PCIDevice {
	for i := range in.PCI {
		if in.PCI[i].Address == addr {
			return &in.PCI[i]
		}
	}
	return nil
}

func findUSB(in Info, name string) *USBDevice {
	for i := range in.USB {
		if in.USB[i].Name == name {
			return &in.USB[i]
		}
	}
	return nil
}

func boolPtrString(b *bool) string {
	if b == nil {
		return "null"
	}
	if *b {
		return "true"
	}
	return "false"
}

func TestPCIFixtures(t *testing.T) {
	cases := []struct {
		fixture, addr          string
		parent, class, driver  string
		vendor                 string
		downgraded, limitedBy  string
		curGen, maxGen, curW   int
		maxW                   int
		warningContains        string
		noWarningForThisDevice bool
	}{
		{fixture: "rock5b-armbian", addr: "0000:01:00.0", parent: "0000:00:00.0", class: "NVMe controller", driver: "nvme", vendor: "Samsung",
			downgraded: "true", limitedBy: "false", curGen: 2, maxGen: 3, curW: 1, maxW: 4,
			warningContains: "PCIe link downgraded: 5.0 GT/s x1 of 8.0 GT/s x4 although upstream port 0000:00:00.0 supports 8.0 GT/s x4"},
		{fixture: "rock5b-armbian", addr: "0000:00:00.0", parent: "", class: "PCI bridge", driver: "pcieport", vendor: "Rockchip",
			downgraded: "null", limitedBy: "null", curGen: 2, maxGen: 3, curW: 1, maxW: 4, noWarningForThisDevice: true},
		{fixture: "rock5b-armbian", addr: "0004:41:00.0", parent: "0004:40:00.0", class: "Ethernet controller", driver: "r8169", vendor: "Realtek",
			downgraded: "false", limitedBy: "null", curGen: 2, maxGen: 2, curW: 1, maxW: 1, noWarningForThisDevice: true},
		{fixture: "rpi5", addr: "0000:01:00.0", parent: "0000:00:00.0", class: "NVMe controller", driver: "nvme", vendor: "Samsung",
			downgraded: "true", limitedBy: "true", curGen: 2, maxGen: 3, curW: 1, maxW: 4,
			warningContains: "PCIe link 5.0 GT/s x1 of 8.0 GT/s x4, limited by upstream port 0000:00:00.0 (max 5.0 GT/s x1)"},
		{fixture: "rpi5", addr: "0001:01:00.0", parent: "0001:00:00.0", class: "Ethernet controller", driver: "rp1", vendor: "Raspberry Pi",
			downgraded: "false", limitedBy: "null", curGen: 2, maxGen: 2, curW: 4, maxW: 4, noWarningForThisDevice: true},
	}
	for _, c := range cases {
		t.Run(c.fixture+"/"+c.addr, func(t *testing.T) {
			in := Collect(fixture.Board(t, c.fixture), true)
			d := findPCI(in, c.addr)
			if d == nil {
				t.Fatalf("%s not found in %+v", c.addr, in.PCI)
			}
			if d.Parent != c.parent || d.ClassName != c.class || d.Driver != c.driver || d.Vendor != c.vendor {
				t.Errorf("got parent %q class %q driver %q vendor %q", d.Parent, d.ClassName, d.Driver, d.Vendor)
			}
			l := d.Link
			if l == nil {
				t.Fatal("no link")
			}
			if got := boolPtrString(l.Downgraded); got != c.downgraded {
				t.Errorf("downgraded = %s, want %s", got, c.downgraded)
			}
			if got := boolPtrString(l.LimitedByPort); got != c.limitedBy {
				t.Errorf("limited_by_port = %s, want %s", got, c.limitedBy)
			}
			if l.CurrentGen == nil || *l.CurrentGen != c.curGen || l.MaxGen == nil || *l.MaxGen != c.maxGen {
				t.Errorf("gen = %v/%v, want %d/%d", l.CurrentGen, l.MaxGen, c.curGen, c.maxGen)
			}
			if l.CurrentWidth == nil || *l.CurrentWidth != c.curW || l.MaxWidth == nil || *l.MaxWidth != c.maxW {
				t.Errorf("width = %v/%v, want %d/%d", l.CurrentWidth, l.MaxWidth, c.curW, c.maxW)
			}
			found := false
			for _, w := range in.Warnings {
				if strings.HasPrefix(w, c.addr) {
					found = true
					if c.warningContains != "" && !strings.Contains(w, c.warningContains) {
						t.Errorf("warning %q lacks %q", w, c.warningContains)
					}
				}
			}
			if found == c.noWarningForThisDevice {
				t.Errorf("warning present = %v, want %v (warnings %q)", found, !c.noWarningForThisDevice, in.Warnings)
			}
		})
	}
}

func TestASPMPolicy(t *testing.T) {
	cases := []struct{ fixture, want string }{
		{"rock5b-armbian", "powersave"},
		{"rpi5", "powersave"},
		{"rpi4b", "default"},
		{"n100-minipc", "default"},
	}
	for _, c := range cases {
		in := Collect(fixture.Board(t, c.fixture), true)
		if in.ASPMPolicy != c.want || len(in.ASPMPolicies) != 4 {
			t.Errorf("%s: aspm %q %q, want %q of 4", c.fixture, in.ASPMPolicy, in.ASPMPolicies, c.want)
		}
	}
}

func TestUSBFixture(t *testing.T) {
	in := Collect(fixture.Board(t, "rock5b-armbian"), true)
	var order []string
	for _, d := range in.USB {
		order = append(order, d.Name)
	}
	wantOrder := []string{"usb1", "1-1", "usb3", "3-1", "3-1.2", "3-1.10", "usb4", "4-1"}
	if !reflect.DeepEqual(order, wantOrder) {
		t.Errorf("order = %q, want %q", order, wantOrder)
	}
	cases := []struct {
		name, parent, version, speedName, serial string
		speed                                    float64
		ports                                    int // -1: null
		drivers                                  []string
	}{
		{"usb1", "", "2.00", "High Speed", "fc800000.usb", 480, 1, []string{"hub"}},
		{"1-1", "usb1", "2.00", "High Speed", redact.Placeholder, 480, -1, []string{"usb-storage"}},
		{"3-1", "usb3", "2.10", "High Speed", "", 480, 4, []string{"hub"}},
		{"3-1.2", "3-1", "2.00", "Full Speed", "", 12, -1, []string{"usbhid", "usbhid", "usbhid"}},
		{"4-1", "usb4", "3.00", "SuperSpeed", redact.Placeholder, 5000, -1, []string{"uas"}},
		{"usb4", "", "3.00", "SuperSpeed", "xhci-hcd.0.auto", 5000, 1, []string{"hub"}},
	}
	for _, c := range cases {
		d := findUSB(in, c.name)
		if d == nil {
			t.Errorf("%s missing", c.name)
			continue
		}
		if d.Parent != c.parent || d.Version != c.version || d.SpeedName != c.speedName || d.Serial != c.serial {
			t.Errorf("%s: parent %q version %q speed %q serial %q", c.name, d.Parent, d.Version, d.SpeedName, d.Serial)
		}
		if d.SpeedMbps == nil || *d.SpeedMbps != c.speed {
			t.Errorf("%s: speed %v, want %v", c.name, d.SpeedMbps, c.speed)
		}
		if (c.ports < 0) != (d.Ports == nil) || d.Ports != nil && *d.Ports != c.ports {
			t.Errorf("%s: ports %v, want %d", c.name, d.Ports, c.ports)
		}
		var drivers []string
		for _, i := range d.Interfaces {
			drivers = append(drivers, i.Driver)
		}
		if !reflect.DeepEqual(drivers, c.drivers) {
			t.Errorf("%s: drivers %q, want %q", c.name, drivers, c.drivers)
		}
	}
	unredacted := Collect(fixture.Board(t, "rock5b-armbian"), false)
	if d := findUSB(unredacted, "1-1"); d == nil || d.Serial != "4C530001230518117315" {
		t.Errorf("unredacted serial = %+v", d)
	}
}

func TestLinkOfHelpers(t *testing.T) {
	h := fixture.Board(t, "rock5b-armbian")
	usb := USBLinkOf(h, "/sys/devices/platform/fc000000.usb/xhci-hcd.0.auto/usb4/4-1/4-1:1.0/host0/target0:0:0/0:0:0:0/block/sda")
	if usb == nil || usb.Device != "4-1" || usb.Interface != "4-1:1.0" || usb.Driver != "uas" ||
		usb.SpeedMbps == nil || *usb.SpeedMbps != 5000 || usb.Version != "3.00" || usb.VendorID != "174c" {
		t.Errorf("USBLinkOf(sda) = %+v", usb)
	}
	if l := USBLinkOf(h, "/sys/devices/platform/fe2c0000.mmc/mmc_host/mmc0/mmc0:aaaa/block/mmcblk0"); l != nil {
		t.Errorf("USBLinkOf(mmc) = %+v, want nil", l)
	}
	pl := PCIeLinkOf(h, "/sys/devices/platform/a40000000.pcie/pci0000:00/0000:00:00.0/0000:01:00.0/nvme/nvme0/nvme0n1")
	if pl == nil || pl.Address != "0000:01:00.0" || pl.Port != "0000:00:00.0" || pl.Downgraded == nil || !*pl.Downgraded {
		t.Errorf("PCIeLinkOf(nvme) = %+v", pl)
	}
	if l := PCIeLinkOf(h, "/sys/devices/virtual/block/loop0"); l != nil {
		t.Errorf("PCIeLinkOf(loop0) = %+v, want nil", l)
	}
}

// TestMissingAndMalformed checks that empty roots and junk attributes never
// panic and produce nulls and notes rather than invented values.
func TestMissingAndMalformed(t *testing.T) {
	h := fixture.Host(t, map[string]string{
		"sys/devices/pci0000:00/0000:00:01.0/vendor":             "\x00\xff junk",
		"sys/devices/pci0000:00/0000:00:01.0/class":              "zzz",
		"sys/devices/pci0000:00/0000:00:01.0/current_link_speed": "Unknown",
		"sys/devices/pci0000:00/0000:00:01.0/max_link_speed":     "8.0 GT/s PCIe",
		"sys/devices/pci0000:00/0000:00:01.0/current_link_width": "0",
		"sys/devices/pci0000:00/0000:00:01.0/max_link_width":     "x4",
		"sys/devices/usb1/speed":                                 "fast",
		"sys/devices/usb1/busnum":                                "",
		"sys/bus/pci/devices/0000:00:01.0":                       "->../../../devices/pci0000:00/0000:00:01.0",
		"sys/bus/pci/devices/not-an-addr":                        "->../../../devices/nowhere",
		"sys/bus/usb/devices/usb1":                               "->../../../devices/usb1",
		"sys/bus/usb/devices/2-1":                                "->../../../devices/missing",
	})
	in := Collect(h, true)
	if len(in.PCI) != 1 {
		t.Fatalf("PCI = %+v, want one device", in.PCI)
	}
	d := in.PCI[0]
	if d.VendorID != "" || d.Class != "" || d.ClassName != "" || d.Link == nil {
		t.Errorf("junk device = %+v", d)
	}
	if d.Link.CurrentGTs != nil || d.Link.MaxWidth != nil || d.Link.Downgraded != nil {
		t.Errorf("junk link = %+v", d.Link)
	}
	if len(in.Notes) == 0 || in.Notes[0].Item != "PCIe ASPM policy" {
		t.Errorf("notes = %+v, want ASPM note", in.Notes)
	}
	if len(in.USB) != 2 {
		t.Fatalf("USB = %+v", in.USB)
	}
	for _, u := range in.USB {
		if u.SpeedMbps != nil || u.Bus != nil {
			t.Errorf("junk usb %s = %+v", u.Name, u)
		}
	}

	empty := fixture.Host(t, nil)
	in = Collect(empty, true)
	if in.PCI == nil || in.USB == nil || len(in.Notes) != 2 {
		t.Errorf("empty root: %+v", in)
	}
}
