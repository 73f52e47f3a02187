// Package netif describes one network interface in the detail a network
// measurement needs: what package network says (driver, bus, USB speed or
// PCIe link, MTU, queue counts), the RPS and XPS masks of every queue, the
// interrupts that serve it with their CPU affinity, and what the kernel's
// ethtool interface reports: link modes of both ends, Energy-Efficient
// Ethernet, interrupt coalescing and channels.
package netif

import (
	"boardbench/internal/lazyre"
	"errors"
	"path"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/inventory/network"
	"boardbench/internal/kernelfile"
)

// Details is one interface as `boardbench net` records it.
type Details struct {
	network.Interface
	// Queues are the receive and transmit queues with their steering
	// masks.
	Queues []Queue `json:"queues"`
	// IRQs are the interrupts that serve the interface.
	IRQs []IRQ `json:"irqs"`
	// Link, EEE, Coalesce and Channels come from the ethtool interface;
	// null when the driver does not say (Notes tells why).
	Link     *Link     `json:"link"`
	EEE      *EEE      `json:"eee"`
	Coalesce *Coalesce `json:"coalesce"`
	Channels *Channels `json:"channels"`
	// DriverInfo is what the driver says about itself through the ethtool
	// interface; null when it could not be read (Notes tells why).
	DriverInfo *DriverInfo `json:"driver_info,omitempty"`
	// Notes say what could not be read.
	Notes []string `json:"notes,omitempty"`
}

// Queue is one receive (rx-N) or transmit (tx-N) queue.
type Queue struct {
	Name string `json:"name"`
	// CPUs is the steering mask in hexadecimal as the kernel prints it:
	// rps_cpus for a receive queue, xps_cpus for a transmit queue; "" when
	// unreadable.
	CPUs string `json:"cpus"`
}

// IRQ is one interrupt of the interface.
type IRQ struct {
	IRQ  string `json:"irq"`
	Name string `json:"name"`
	// Affinity is /proc/irq/N/smp_affinity_list (the CPUs allowed),
	// Effective the effective_affinity_list (the CPU that takes it); ""
	// when unreadable.
	Affinity  string `json:"affinity"`
	Effective string `json:"effective,omitempty"`
}

// Link is what ethtool says about the link.
type Link struct {
	SpeedMbps *int64 `json:"speed_mbps"`
	Duplex    string `json:"duplex"`
	Autoneg   bool   `json:"autoneg"`
	// Advertised are the link modes this end offers, PeerAdvertised those
	// of the other end ("1000baseT/Full").
	Advertised     []string `json:"advertised"`
	PeerAdvertised []string `json:"peer_advertised"`
}

// EEE is the Energy-Efficient Ethernet state.
type EEE struct {
	Supported bool `json:"supported"`
	Enabled   bool `json:"enabled"`
	Active    bool `json:"active"`
	TxLPI     bool `json:"tx_lpi"`
}

// Coalesce is the interrupt coalescing of the interface: how long (µs) and
// how many frames the NIC waits before raising an interrupt.
type Coalesce struct {
	RxUsecs    uint32 `json:"rx_usecs"`
	RxFrames   uint32 `json:"rx_frames"`
	TxUsecs    uint32 `json:"tx_usecs"`
	TxFrames   uint32 `json:"tx_frames"`
	AdaptiveRx bool   `json:"adaptive_rx"`
	AdaptiveTx bool   `json:"adaptive_tx"`
}

// Minimal reports whether coalescing is effectively off: an interrupt per
// frame, without an adaptive scheme.
func (c Coalesce) Minimal() bool {
	return !c.AdaptiveRx && c.RxUsecs <= 1 && c.RxFrames <= 1
}

// Channels are the queue counts the driver uses (and supports at most).
type Channels struct {
	Rx          uint32 `json:"rx"`
	Tx          uint32 `json:"tx"`
	Combined    uint32 `json:"combined"`
	MaxRx       uint32 `json:"max_rx"`
	MaxTx       uint32 `json:"max_tx"`
	MaxCombined uint32 `json:"max_combined"`
}

// Describe returns the details of ifname. eth is nil on a recorded root
// (the ethtool interface only answers for the live machine).
func Describe(h *host.Host, ifname string, eth Ethtool) Details {
	d := Details{Queues: []Queue{}, IRQs: []IRQ{}}
	if i, ok := network.One(h, ifname, true); ok {
		d.Interface = i
	} else {
		d.Name = ifname
		d.Notes = append(d.Notes, "interface not found under /sys/class/net")
		return d
	}
	if d.Virtual && d.Bus == "" {
		// No device behind it (veth, bridge, tunnel): say so rather than
		// "unknown".
		d.Bus = "virtual"
	}
	qdir := path.Join("/sys/class/net", ifname, "queues")
	names, _ := h.ReadDirNames(qdir)
	slices.SortFunc(names, compareQueues)
	for _, n := range names {
		file := ""
		switch {
		case strings.HasPrefix(n, "rx-"):
			file = "rps_cpus"
		case strings.HasPrefix(n, "tx-"):
			file = "xps_cpus"
		default:
			continue
		}
		v, _ := h.ReadString(path.Join(qdir, n, file))
		d.Queues = append(d.Queues, Queue{Name: n, CPUs: strings.TrimSpace(v)})
	}
	if b, err := h.ReadFile("/proc/interrupts"); err == nil {
		ints, _ := kernelfile.ParseInterrupts(b)
		for _, irq := range InterfaceIRQs(h, ifname, ints) {
			d.IRQs = append(d.IRQs, readIRQ(h, irq, ints))
		}
	}
	if eth == nil {
		d.Notes = append(d.Notes, "ethtool: not available for a recorded machine")
		return d
	}
	note := func(what string, err error) {
		if err != nil {
			d.Notes = append(d.Notes, what+": "+err.Error())
		}
	}
	var err error
	d.DriverInfo, err = eth.DriverInfo(ifname)
	note("driver information", err)
	useDriverInfo(&d)
	d.Link, err = eth.Link(ifname)
	note("link modes", err)
	d.EEE, err = eth.EEE(ifname)
	if !errors.Is(err, ErrNotSupported) {
		note("EEE", err)
	}
	d.Coalesce, err = eth.Coalesce(ifname)
	note("coalescing", err)
	d.Channels, err = eth.Channels(ifname)
	note("channels", err)
	return d
}

// useDriverInfo takes the driver's name from the ethtool interface, which
// also answers for virtual interfaces (veth, bridge, tun) that sysfs shows
// without a driver; sysfs stays the fallback.
func useDriverInfo(d *Details) {
	if d.DriverInfo != nil && d.DriverInfo.Driver != "" {
		d.Driver = d.DriverInfo.Driver
	}
}

// readIRQ reads the affinity of one interrupt.
func readIRQ(h *host.Host, irq string, ints kernelfile.Interrupts) IRQ {
	out := IRQ{IRQ: irq}
	for _, l := range ints.Lines {
		if l.IRQ == irq {
			out.Name = strings.Join(l.Actions, ", ")
		}
	}
	v, _ := h.ReadString("/proc/irq/" + irq + "/smp_affinity_list")
	out.Affinity = strings.TrimSpace(v)
	v, _ = h.ReadString("/proc/irq/" + irq + "/effective_affinity_list")
	out.Effective = strings.TrimSpace(v)
	return out
}

// usbBusRE finds the root hub of a USB device's sysfs path ("/usb1/").
var usbBusRE = lazyre.Regexp(`/usb[0-9]+/`)

// compareQueues orders rx-0, rx-1, ..., rx-10, tx-0, ...
func compareQueues(a, b string) int {
	pa, na, _ := strings.Cut(a, "-")
	pb, nb, _ := strings.Cut(b, "-")
	if pa != pb {
		return strings.Compare(pa, pb)
	}
	ia, _ := strconv.Atoi(na)
	ib, _ := strconv.Atoi(nb)
	return ia - ib
}

// InterfaceIRQs returns the interrupts that serve an interface: those whose
// handler is named after it ("eth0", "eth0-rx-0", "eth0:tx"), and those of
// its device or, for a USB adapter, of the controller it hangs from (the
// first device up the sysfs chain with an irq file or msi_irqs directory).
func InterfaceIRQs(h *host.Host, ifname string, ints kernelfile.Interrupts) []string {
	var out []string
	add := func(irq string) {
		if !slices.Contains(out, irq) {
			out = append(out, irq)
		}
	}
	for _, line := range ints.Lines {
		for _, a := range line.Actions {
			if a == ifname || strings.HasPrefix(a, ifname+"-") || strings.HasPrefix(a, ifname+":") || strings.HasPrefix(a, ifname+"_") {
				add(line.IRQ)
			}
		}
	}
	dev, err := h.Resolve(path.Join("/sys/class/net", ifname, "device"))
	if err != nil {
		return out
	}
	// A USB adapter is served by its host controller's interrupt, whose
	// handler names the bus ("dwc_otg_hcd:usb1", "ehci_hcd:usb2").
	if bus := usbBusRE.FindString(dev); bus != "" {
		bus = strings.Trim(bus, "/")
		for _, line := range ints.Lines {
			for _, a := range line.Actions {
				if strings.HasSuffix(a, ":"+bus) {
					add(line.IRQ)
				}
			}
		}
	}
	for i := 0; i < 8 && strings.HasPrefix(dev, "/sys/devices/") && dev != "/sys/devices"; i, dev = i+1, path.Dir(dev) {
		found := false
		if names, err := h.ReadDirNames(dev + "/msi_irqs"); err == nil && len(names) > 0 {
			for _, n := range names {
				if _, err := strconv.Atoi(n); err == nil {
					add(n)
					found = true
				}
			}
		}
		if v, err := h.ReadInt(dev + "/irq"); err == nil && v > 0 && !found {
			add(strconv.FormatInt(v, 10))
			found = true
		}
		if found {
			break
		}
	}
	// Keep only interrupts the kernel lists, in its order.
	var listed []string
	for _, line := range ints.Lines {
		if slices.Contains(out, line.IRQ) {
			listed = append(listed, line.IRQ)
		}
	}
	return listed
}
