package infotext

import (
	"strconv"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/buses"
	"boardbench/internal/inventory/network"
	"boardbench/internal/textfmt"
)

// renderNetwork writes the Network section: one row per interface (type,
// driver, bus, MAC, state, negotiated speed, MTU, queues), warnings and what
// is unknown.
func renderNetwork(w *textfmt.Writer, in *inventory.Info) {
	n := in.Network
	w.Section("Network")
	if len(n.Interfaces) == 0 {
		w.Line("no network interfaces found besides loopback")
	} else {
		t := textfmt.NewTable("INTERFACE", "TYPE", "DRIVER", "BUS", "MAC", "STATE", "SPEED Mbit/s", "MTU", "QUEUES")
		t.RightAlign[6], t.RightAlign[7] = true, true
		t.Wrap[3], t.Wrap[6] = true, true
		for _, i := range n.Interfaces {
			mtu := "unknown"
			if i.MTU != nil {
				mtu = strconv.FormatInt(*i.MTU, 10)
			}
			queues := "-"
			if i.RxQueues != nil && i.TxQueues != nil {
				queues = strconv.Itoa(*i.RxQueues) + "/" + strconv.Itoa(*i.TxQueues)
			}
			driver := netDash(i.Driver)
			if i.Virtual {
				driver = "(virtual)"
			}
			t.Row(i.Name, netDash(i.Type), driver, netBus(i), netDash(i.MAC), netState(i), netSpeed(i), mtu, queues)
		}
		w.Table(t)
	}
	for _, msg := range n.Warnings {
		w.Line("warning: %s", msg)
	}
	for _, note := range n.Notes {
		w.Line("unknown: %s (%s)", note.Item, note.Reason)
	}
}

// netBus names the bus, with the USB speed or PCIe link where known.
func netBus(i network.Interface) string {
	switch {
	case i.USB != nil && i.USB.SpeedMbps != nil:
		return "USB " + buses.FormatUSBSpeed(*i.USB.SpeedMbps)
	case i.PCIe != nil && i.PCIe.CurrentGTs != nil:
		return "PCIe " + buses.FormatLink(i.PCIe.CurrentGTs, i.PCIe.CurrentWidth)
	}
	return netDash(i.Bus)
}

// netState combines operational state and carrier, e.g. "up",
// "down", "up, no carrier".
func netState(i network.Interface) string {
	s := netDash(i.OperState)
	if i.Carrier != nil && !*i.Carrier {
		s += ", no carrier"
	}
	return s
}

// netSpeed renders the negotiated speed in Mbit/s and the duplex, e.g. "1000
// full"; "-" when unknown.
func netSpeed(i network.Interface) string {
	if i.SpeedMbps == nil {
		return "-"
	}
	s := strconv.FormatInt(*i.SpeedMbps, 10)
	if i.Duplex != "" {
		s += " " + i.Duplex
	}
	return s
}

// netDash returns s, or "-" when it is empty.
func netDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
