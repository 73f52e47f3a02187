package buses

// The names below are switch statements rather than map literals: a map
// literal is built when the program starts, a switch costs nothing until it
// runs (and, like a map literal, refuses a duplicate key at compile time).

// pciSubclassName names a PCI class code by base class and subclass (the
// top 16 bits of the 24-bit class code); "" when unknown.
func pciSubclassName(sub uint64) string {
	switch sub {
	case 0x0100:
		return "SCSI controller"
	case 0x0101:
		return "IDE controller"
	case 0x0104:
		return "RAID controller"
	case 0x0106:
		return "SATA controller"
	case 0x0107:
		return "SAS controller"
	case 0x0108:
		return "NVMe controller"
	case 0x0200:
		return "Ethernet controller"
	case 0x0280:
		return "Network controller (usually Wi-Fi)"
	case 0x0300:
		return "VGA compatible controller"
	case 0x0302:
		return "3D controller"
	case 0x0380:
		return "Display controller"
	case 0x0401, 0x0403:
		return "Audio device"
	case 0x0600:
		return "Host bridge"
	case 0x0601:
		return "ISA bridge"
	case 0x0604:
		return "PCI bridge"
	case 0x0680:
		return "Bridge"
	case 0x0c03:
		return "USB controller"
	case 0x0c05:
		return "SMBus controller"
	case 0x0d11:
		return "Bluetooth controller"
	case 0x1200:
		return "Processing accelerator"
	}
	return ""
}

// pciBaseClassName names a PCI base class (the top 8 bits of the class
// code), for subclasses pciSubclassName does not name; "" when unknown.
func pciBaseClassName(base uint64) string {
	switch base {
	case 0x01:
		return "Mass storage controller"
	case 0x02:
		return "Network controller"
	case 0x03:
		return "Display controller"
	case 0x04:
		return "Multimedia controller"
	case 0x05:
		return "Memory controller"
	case 0x06:
		return "Bridge"
	case 0x07:
		return "Communication controller"
	case 0x08:
		return "System peripheral"
	case 0x09:
		return "Input device controller"
	case 0x0b:
		return "Processor"
	case 0x0c:
		return "Serial bus controller"
	case 0x0d:
		return "Wireless controller"
	case 0x10:
		return "Encryption controller"
	case 0x11:
		return "Signal processing controller"
	case 0x12:
		return "Processing accelerator"
	}
	return ""
}

// usbProgIf names the programming interface of a PCI USB controller; ""
// when unknown.
func usbProgIf(progIf uint64) string {
	switch progIf {
	case 0x00:
		return "UHCI"
	case 0x10:
		return "OHCI"
	case 0x20:
		return "EHCI"
	case 0x30:
		return "xHCI"
	case 0x40:
		return "USB4"
	}
	return ""
}

// PCIClassName names a 24-bit PCI class code, e.g. 0x010802 → "NVMe
// controller", 0x0c0330 → "USB controller (xHCI)"; "" when unknown.
func PCIClassName(class uint64) string {
	sub := class >> 8
	if name := pciSubclassName(sub); name != "" {
		if sub == 0x0c03 {
			if pi := usbProgIf(class & 0xff); pi != "" {
				return name + " (" + pi + ")"
			}
		}
		return name
	}
	return pciBaseClassName(class >> 16)
}

// PCIVendorName names a PCI vendor id for the vendors boardbench knows: a
// few common on single-board computers and in the devices plugged into
// them; "" for the others.
func PCIVendorName(id uint64) string {
	switch id {
	case 0x1002:
		return "AMD/ATI"
	case 0x1022:
		return "AMD"
	case 0x106b:
		return "Apple"
	case 0x10de:
		return "NVIDIA"
	case 0x10ec:
		return "Realtek"
	case 0x1106:
		return "VIA"
	case 0x1179:
		return "Toshiba"
	case 0x126f:
		return "Silicon Motion"
	case 0x1344:
		return "Micron"
	case 0x144d:
		return "Samsung"
	case 0x14c3:
		return "MediaTek"
	case 0x14e4:
		return "Broadcom"
	case 0x15b7:
		return "SanDisk/Western Digital"
	case 0x168c:
		return "Qualcomm Atheros"
	case 0x17cb:
		return "Qualcomm"
	case 0x1912:
		return "Renesas"
	case 0x1987:
		return "Phison"
	case 0x1af4:
		return "Red Hat (virtio)"
	case 0x1b21:
		return "ASMedia"
	case 0x1b4b:
		return "Marvell"
	case 0x1c5c:
		return "SK hynix"
	case 0x1d87:
		return "Rockchip"
	case 0x1de4:
		return "Raspberry Pi"
	case 0x1e0f:
		return "KIOXIA"
	case 0x2646:
		return "Kingston"
	case 0x8086:
		return "Intel"
	case 0xc0a9:
		return "Micron/Crucial"
	}
	return ""
}
