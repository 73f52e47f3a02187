package kernelfile

import "strings"

// ParseStringList splits a device-tree string-list property
// (/proc/device-tree/compatible: "raspberrypi,4-model-b\x00brcm,bcm2711\x00")
// into its strings, as written, without the empty ones.
func ParseStringList(b []byte) []string {
	var out []string
	for s := range strings.SplitSeq(string(b), "\x00") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

// ParseCell32 reads a device-tree property that holds one 32-bit cell
// (big-endian, as the device tree stores integers: the Raspberry Pi
// firmware's /chosen/bootloader/build-timestamp); false unless it is
// exactly 4 bytes.
func ParseCell32(b []byte) (uint32, bool) {
	if len(b) != 4 {
		return 0, false
	}
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3]), true
}

// ParseString reads a device-tree string property ("…\x00"): the text up
// to the first NUL; false when it is empty or holds bytes outside
// printable ASCII.
func ParseString(b []byte) (string, bool) {
	if i := strings.IndexByte(string(b), 0); i >= 0 {
		b = b[:i]
	}
	if len(b) == 0 {
		return "", false
	}
	for _, c := range b {
		if c < 0x20 || c > 0x7e {
			return "", false
		}
	}
	return string(b), true
}

// ParseCells reads a device-tree property of 32-bit big-endian cells
// (opp-microvolt's "target min max", opp-supported-hw, a phandle); false
// when it is empty or not a whole number of cells.
func ParseCells(b []byte) ([]uint32, bool) {
	if len(b) == 0 || len(b)%4 != 0 {
		return nil, false
	}
	out := make([]uint32, len(b)/4)
	for i := range out {
		out[i], _ = ParseCell32(b[4*i : 4*i+4])
	}
	return out, true
}

// ParseCellsU64 reads a device-tree number of one or two cells (opp-hz:
// two cells for clocks beyond 4 GHz, one in older trees); false for any
// other size.
func ParseCellsU64(b []byte) (uint64, bool) {
	c, ok := ParseCells(b)
	switch {
	case !ok:
		return 0, false
	case len(c) == 1:
		return uint64(c[0]), true
	case len(c) == 2:
		return uint64(c[0])<<32 | uint64(c[1]), true
	}
	return 0, false
}
