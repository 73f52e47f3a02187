package infotext

import (
	"strconv"
	"strings"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/buses"
	"boardbench/internal/textfmt"
)

// renderBuses writes the Buses section: PCI functions with their negotiated
// and possible PCIe links, the ASPM policy, the USB device tree with speeds
// and interface drivers, warnings and what is unknown.
func renderBuses(w *textfmt.Writer, in *inventory.Info) {
	b := in.Buses
	w.Section("Buses")
	if len(b.PCI) > 0 {
		w.KV([2]string{"PCIe ASPM policy", b.ASPMPolicy})
		w.Line("PCI devices:")
		t := textfmt.NewTable("ADDRESS", "ID", "VENDOR", "CLASS", "DRIVER", "LINK", "MAX LINK", "STATUS")
		t.Wrap[2], t.Wrap[3] = true, true
		for _, d := range b.PCI {
			id := strings.TrimPrefix(d.VendorID, "0x") + ":" + strings.TrimPrefix(d.DeviceID, "0x")
			cur, max, status := "-", "-", ""
			if l := d.Link; l != nil {
				cur = buses.FormatLink(l.CurrentGTs, l.CurrentWidth)
				max = buses.FormatLink(l.MaxGTs, l.MaxWidth)
				switch {
				case l.Downgraded == nil:
				case !*l.Downgraded:
					status = "ok"
				case l.LimitedByPort != nil && *l.LimitedByPort:
					status = "limited by port"
				default:
					status = "downgraded"
				}
			}
			t.Row(d.Address, id, busDash(d.Vendor), busDash(d.ClassName), busDash(d.Driver), cur, max, status)
		}
		w.Table(t)
	}
	if len(b.USB) > 0 {
		w.Line("USB devices:")
		t := textfmt.NewTable("DEVICE", "BUS:DEV", "ID", "SPEED", "USB", "PRODUCT", "DRIVERS")
		t.Wrap[5], t.Wrap[6] = true, true
		t.RightAlign[3] = true
		for _, d := range b.USB {
			busdev := "-"
			if d.Bus != nil && d.Device != nil {
				busdev = strconv.Itoa(*d.Bus) + ":" + strconv.Itoa(*d.Device)
			}
			speed := "unknown"
			if d.SpeedMbps != nil {
				speed = buses.FormatUSBSpeed(*d.SpeedMbps)
			}
			product := strings.TrimSpace(d.Manufacturer + " " + d.Product)
			if d.RootHub {
				product = d.Product
			}
			if d.Ports != nil {
				product += " (" + strconv.Itoa(*d.Ports) + " port"
				if *d.Ports != 1 {
					product += "s"
				}
				product += ")"
			}
			t.Row(busUSBIndent(d)+d.Name, busdev, d.VendorID+":"+d.ProductID, speed, busDash(d.Version),
				busDash(strings.TrimSpace(product)), busDash(busUSBDrivers(d)))
		}
		w.Table(t)
	}
	if len(b.PCI) == 0 && len(b.USB) == 0 {
		w.Line("no PCI or USB devices found")
	}
	for _, msg := range b.Warnings {
		w.Line("warning: %s", msg)
	}
	for _, n := range b.Notes {
		w.Line("unknown: %s (%s)", n.Item, n.Reason)
	}
}

// busUSBIndent indents a USB device by its depth below the root hub.
func busUSBIndent(d buses.USBDevice) string {
	if d.RootHub {
		return ""
	}
	return strings.Repeat("  ", 1+strings.Count(d.Name, "."))
}

// busUSBDrivers lists the distinct drivers of a device's interfaces.
func busUSBDrivers(d buses.USBDevice) string {
	var out []string
	seen := map[string]bool{}
	for _, i := range d.Interfaces {
		if i.Driver != "" && !seen[i.Driver] {
			seen[i.Driver] = true
			out = append(out, i.Driver)
		}
	}
	return strings.Join(out, ", ")
}

// busDash returns s, or "-" when it is empty.
func busDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
