package buses

// pciSubclassNames names PCI class codes by base class and subclass (the top
// 16 bits of the 24-bit class code).
var pciSubclassNames = map[uint64]string{
	0x0100: "SCSI controller",
	0x0101: "IDE controller",
	0x0104: "RAID controller",
	0x0106: "SATA controller",
	0x0107: "SAS controller",
	0x0108: "NVMe controller",
	0x0200: "Ethernet controller",
	0x0280: "Network controller (usually Wi-Fi)",
	0x0300: "VGA compatible controller",
	0x0302: "3D controller",
	0x0380: "Display controller",
	0x0401: "Audio device",
	0x0403: "Audio device",
	0x0600: "Host bridge",
	0x0601: "ISA bridge",
	0x0604: "PCI bridge",
	0x0680: "Bridge",
	0x0c03: "USB controller",
	0x0c05: "SMBus controller",
	0x0d11: "Bluetooth controller",
	0x1200: "Processing accelerator",
}

// pciBaseClassNames names PCI base classes (the top 8 bits of the class
// code) for subclasses not in pciSubclassNames.
var pciBaseClassNames = map[uint64]string{
	0x01: "Mass storage controller",
	0x02: "Network controller",
	0x03: "Display controller",
	0x04: "Multimedia controller",
	0x05: "Memory controller",
	0x06: "Bridge",
	0x07: "Communication controller",
	0x08: "System peripheral",
	0x09: "Input device controller",
	0x0b: "Processor",
	0x0c: "Serial bus controller",
	0x0d: "Wireless controller",
	0x10: "Encryption controller",
	0x11: "Signal processing controller",
	0x12: "Processing accelerator",
}

// usbProgIf names the programming interfaces of PCI USB controllers.
var usbProgIf = map[uint64]string{
	0x00: "UHCI", 0x10: "OHCI", 0x20: "EHCI", 0x30: "xHCI", 0x40: "USB4",
}

// PCIClassName names a 24-bit PCI class code, e.g. 0x010802 → "NVMe
// controller", 0x0c0330 → "USB controller (xHCI)"; "" when unknown.
func PCIClassName(class uint64) string {
	sub := class >> 8
	if name, ok := pciSubclassNames[sub]; ok {
		if sub == 0x0c03 {
			if pi, ok := usbProgIf[class&0xff]; ok {
				return name + " (" + pi + ")"
			}
		}
		return name
	}
	return pciBaseClassNames[class>>16]
}

// pciVendors names a few PCI vendor ids common on single-board computers and
// in the devices plugged into them. Unknown ids stay unnamed.
var pciVendors = map[uint64]string{
	0x1002: "AMD/ATI",
	0x1022: "AMD",
	0x106b: "Apple",
	0x10de: "NVIDIA",
	0x10ec: "Realtek",
	0x1106: "VIA",
	0x1179: "Toshiba",
	0x126f: "Silicon Motion",
	0x1344: "Micron",
	0x144d: "Samsung",
	0x14c3: "MediaTek",
	0x14e4: "Broadcom",
	0x15b7: "SanDisk/Western Digital",
	0x168c: "Qualcomm Atheros",
	0x17cb: "Qualcomm",
	0x1912: "Renesas",
	0x1987: "Phison",
	0x1af4: "Red Hat (virtio)",
	0x1b21: "ASMedia",
	0x1b4b: "Marvell",
	0x1c5c: "SK hynix",
	0x1d87: "Rockchip",
	0x1de4: "Raspberry Pi",
	0x1e0f: "KIOXIA",
	0x2646: "Kingston",
	0x8086: "Intel",
	0xc0a9: "Micron/Crucial",
}

// PCIVendorName names a PCI vendor id for the vendors boardbench knows; ""
// for the others.
func PCIVendorName(id uint64) string { return pciVendors[id] }
