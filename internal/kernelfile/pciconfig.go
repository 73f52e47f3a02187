package kernelfile

import "fmt"

// PCIConfigUserBytes is how much of a device's configuration space
// (/sys/bus/pci/devices/ADDR/config) the kernel shows a user without
// CAP_SYS_ADMIN: the standard header only.
const PCIConfigUserBytes = 64

// ParsePCIConfigWord reads the little-endian 32-bit word at off of a PCI
// device's configuration space (/sys/bus/pci/devices/ADDR/config), as
// `lspci -xxx` shows its bytes. The error says when the file is too short:
// at or below PCIConfigUserBytes that means the reader lacks the right to
// see beyond the header.
func ParsePCIConfigWord(b []byte, off int) (uint32, error) {
	if off < 0 || off%4 != 0 {
		return 0, fmt.Errorf("offset %#x is not a word offset", off)
	}
	if len(b) < off+4 {
		if len(b) <= PCIConfigUserBytes {
			return 0, fmt.Errorf("only %d bytes of configuration space readable (needs root beyond %d)", len(b), PCIConfigUserBytes)
		}
		return 0, fmt.Errorf("configuration space of %d bytes ends before %#x", len(b), off+4)
	}
	return uint32(b[off]) | uint32(b[off+1])<<8 | uint32(b[off+2])<<16 | uint32(b[off+3])<<24, nil
}
