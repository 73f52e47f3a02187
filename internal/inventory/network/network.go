// Package network describes the machine's network interfaces from
// /sys/class/net: type (Ethernet, Wi-Fi, bridge, ...), driver, the bus the
// adapter sits on (PCIe, USB, SDIO, platform) with its USB speed or PCIe
// link, MAC address, state, carrier, negotiated speed and duplex, MTU and
// queue counts. It reads sysfs only; link modes a driver could negotiate
// are not in sysfs and are not reported.
package network

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strconv"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/inventory/buses"
	"boardbench/internal/kernelfile"
	"boardbench/internal/note"
	"boardbench/internal/redact"
)

const netDir = "/sys/class/net"

// Info is the Network section of a machine description.
type Info struct {
	// Interfaces lists the network interfaces except loopback, adapters
	// with a device first, virtual interfaces after them.
	Interfaces []Interface `json:"interfaces"`
	// Warnings are findings worth the user's attention, one sentence each.
	Warnings []string `json:"warnings,omitempty"`
	// Notes lists what could not be established and why.
	Notes note.List `json:"notes,omitempty"`
}

// Interface is one network interface.
type Interface struct {
	// Name is the interface name, e.g. "eth0", "wlan0", "enp1s0".
	Name string `json:"name"`
	// Type is "ether", "wlan", "bridge", "bond", "vlan", "wireguard",
	// "tun", "can", "ppp", "wwan", "ipip", "gre", "sit", "none" or the
	// ARPHRD number as text for rare link types; "" when unknown.
	Type string `json:"type"`
	// Virtual is true for interfaces without a device (bridges, tunnels,
	// veth, ...).
	Virtual bool `json:"virtual"`
	// Driver is the kernel driver of the adapter, e.g. "r8169", "macb",
	// "brcmfmac"; "" for virtual interfaces.
	Driver string `json:"driver"`
	// Bus is where the adapter sits: "PCIe", "PCI", "USB", "SDIO",
	// "platform", "virtio" or another subsystem name; "" when virtual.
	Bus string `json:"bus"`
	// Device is the adapter's sysfs device name, e.g. "0000:01:00.0",
	// "2-1:1.0", "1f00100000.ethernet".
	Device string `json:"device"`
	// MAC is the hardware address, vendor part only ("d8:3a:dd:xx:xx:xx")
	// with redaction on; "" when the interface has none.
	MAC string `json:"mac"`
	// MACAssignment says where the address comes from: "permanent",
	// "random", "stolen" or "set"; "" when not exposed. A random address
	// changes on every boot.
	MACAssignment string `json:"mac_assignment"`
	// OperState is the kernel's operational state: "up", "down",
	// "dormant", "lowerlayerdown", "unknown", ...
	OperState string `json:"operstate"`
	// Carrier is true when a link is detected; null when the kernel
	// refuses to say (interface administratively down).
	Carrier *bool `json:"carrier"`
	// SpeedMbps is the negotiated link speed in Mbit/s; null when unknown
	// (no link, Wi-Fi, virtual interfaces).
	SpeedMbps *int64 `json:"speed_mbps"`
	// Duplex is "full" or "half"; "" when unknown.
	Duplex string `json:"duplex"`
	// MTU is the maximum transmission unit in bytes; null when unreadable.
	MTU *int64 `json:"mtu"`
	// RxQueues and TxQueues count the interface's receive and transmit
	// queues; null when not exposed.
	RxQueues *int `json:"rx_queues"`
	TxQueues *int `json:"tx_queues"`
	// USB describes the USB connection of a USB adapter; null otherwise.
	USB *buses.USBLink `json:"usb"`
	// PCIe is the PCIe link of a PCIe adapter; null otherwise.
	PCIe *buses.PCIeLink `json:"pcie"`
}

// The names below are switches, not map literals, so that they cost
// nothing when boardbench starts.

// arphrdType names an ARPHRD link type of /sys/class/net/*/type; "" when
// unknown.
func arphrdType(t int64) string {
	switch t {
	case 1:
		return "ether"
	case 280:
		return "can"
	case 512:
		return "ppp"
	case 768:
		return "ipip"
	case 772:
		return "loopback"
	case 776:
		return "sit"
	case 778:
		return "gre"
	case 823:
		return "ip6gre"
	case 65534:
		return "none"
	}
	return ""
}

// assignType names a /sys/class/net/*/addr_assign_type value; "" when
// unknown.
func assignType(v string) string {
	switch v {
	case "0":
		return "permanent"
	case "1":
		return "random"
	case "2":
		return "stolen"
	case "3":
		return "set"
	}
	return ""
}

// busName maps a device's subsystem to the bus shown to users; "" when it
// has none.
func busName(subsystem string) string {
	switch subsystem {
	case "pci":
		return "PCI"
	case "usb":
		return "USB"
	case "sdio":
		return "SDIO"
	case "platform", "amba":
		return "platform"
	case "virtio":
		return "virtio"
	case "spi":
		return "SPI"
	case "vmbus":
		return "Hyper-V"
	}
	return ""
}

// Collect describes the network interfaces of the machine behind h. It
// never fails: what cannot be read is listed in Notes. With redactIDs set,
// MAC addresses keep only their vendor part.
func Collect(h *host.Host, redactIDs bool) Info {
	in := Info{Interfaces: []Interface{}}
	names, err := h.ReadDirNames(netDir)
	if err != nil {
		reason := note.Unreadable
		if errors.Is(err, fs.ErrNotExist) {
			reason = note.NotExposed
		}
		in.Notes.Add("network interfaces", reason)
		return in
	}
	var virtual []Interface
	for _, name := range names {
		if name == "lo" || strings.HasPrefix(name, ".") || name == "bonding_masters" {
			continue
		}
		i := readInterface(h, name, redactIDs)
		if i.Type == "loopback" {
			continue
		}
		if i.Virtual {
			virtual = append(virtual, i)
		} else {
			in.Interfaces = append(in.Interfaces, i)
		}
	}
	in.Interfaces = append(in.Interfaces, virtual...)
	for _, i := range in.Interfaces {
		in.Warnings = append(in.Warnings, warnings(i)...)
	}
	return in
}

// One describes the interface name, loopback included (Collect leaves it
// out); ok is false when /sys/class/net has no such interface.
func One(h *host.Host, name string, redactIDs bool) (Interface, bool) {
	if name == "" || strings.ContainsAny(name, "/\x00") || name == "." || name == ".." {
		return Interface{}, false
	}
	if _, err := h.ReadDirNames(netDir + "/" + name); err != nil {
		return Interface{}, false
	}
	return readInterface(h, name, redactIDs), true
}

func readInterface(h *host.Host, name string, redactIDs bool) Interface {
	dir := netDir + "/" + name
	i := Interface{Name: name}
	devPath, err := h.Resolve(dir + "/device")
	i.Virtual = err != nil
	if !i.Virtual {
		i.Device = path.Base(devPath)
		i.Driver = linkBase(h, dir+"/device/driver")
		sub := linkBase(h, dir+"/device/subsystem")
		i.Bus = busName(sub)
		if i.Bus == "" {
			i.Bus = sub
		}
		switch sub {
		case "pci":
			i.PCIe = buses.PCIeLinkOf(h, devPath)
			if i.PCIe != nil {
				i.Bus = "PCIe"
			}
		case "usb":
			i.USB = buses.USBLinkOf(h, devPath)
		}
	}
	i.Type = interfaceType(h, dir)
	i.MAC = readString(h, dir+"/address")
	if redactIDs {
		i.MAC = redact.MAC(i.MAC)
	}
	i.MACAssignment = assignType(readString(h, dir+"/addr_assign_type"))
	i.OperState = readString(h, dir+"/operstate")
	if s, err := h.ReadString(dir + "/carrier"); err == nil && (s == "0" || s == "1") {
		c := s == "1"
		i.Carrier = &c
	}
	if v, err := h.ReadInt(dir + "/speed"); err == nil && v > 0 && v < 10_000_000 {
		i.SpeedMbps = &v
	}
	if d := readString(h, dir+"/duplex"); d == "full" || d == "half" {
		i.Duplex = d
	}
	if v, err := h.ReadInt(dir + "/mtu"); err == nil && v > 0 {
		i.MTU = &v
	}
	i.RxQueues, i.TxQueues = countQueues(h, dir+"/queues")
	return i
}

// interfaceType names the kind of an interface from its uevent DEVTYPE,
// the wireless, bridge and bonding directories and the ARPHRD type.
func interfaceType(h *host.Host, dir string) string {
	devtype := ""
	if s, err := h.ReadString(dir + "/uevent"); err == nil {
		devtype = kernelfile.ParseUevent(s)["DEVTYPE"]
	}
	switch {
	case devtype == "wlan" || h.Exists(dir+"/wireless") || h.Exists(dir+"/phy80211"):
		return "wlan"
	case devtype != "":
		return devtype
	case h.Exists(dir + "/bridge"):
		return "bridge"
	case h.Exists(dir + "/bonding"):
		return "bond"
	case h.Exists(dir + "/tun_flags"):
		return "tun"
	}
	v, err := h.ReadInt(dir + "/type")
	if err != nil {
		return ""
	}
	if name := arphrdType(v); name != "" {
		return name
	}
	return strconv.FormatInt(v, 10)
}

// countQueues counts rx-N and tx-N entries of a queues directory.
func countQueues(h *host.Host, dir string) (rx, tx *int) {
	names, err := h.ReadDirNames(dir)
	if err != nil {
		return nil, nil
	}
	var r, t int
	for _, n := range names {
		switch {
		case strings.HasPrefix(n, "rx-"):
			r++
		case strings.HasPrefix(n, "tx-"):
			t++
		}
	}
	return &r, &t
}

// warnings returns the findings for one interface.
func warnings(i Interface) []string {
	var out []string
	if i.USB != nil && i.USB.SpeedMbps != nil && i.SpeedMbps != nil && float64(*i.SpeedMbps) > *i.USB.SpeedMbps*0.6 {
		out = append(out, fmt.Sprintf("%s: %d Mbit/s network link on a %s USB connection; the USB link, not the network, limits throughput",
			i.Name, *i.SpeedMbps, buses.FormatUSBSpeed(*i.USB.SpeedMbps)))
	}
	if i.Duplex == "half" && i.Carrier != nil && *i.Carrier {
		out = append(out, fmt.Sprintf("%s: link negotiated half duplex; check cable and switch port", i.Name))
	}
	return out
}

// readString returns a trimmed attribute, "" on any error.
func readString(h *host.Host, p string) string {
	s, err := h.ReadString(p)
	if err != nil {
		return ""
	}
	return s
}

// linkBase returns the last element of a link's target, "" when missing.
func linkBase(h *host.Host, p string) string {
	t, err := h.Readlink(p)
	if err != nil || t == "" {
		return ""
	}
	return path.Base(t)
}
