package kernelfile

import (
	"strconv"
	"strings"
)

// Swap is one swap area of /proc/swaps:
//
//	Filename        Type       Size     Used  Priority
//	/dev/zram0      partition  1015804  0     100
type Swap struct {
	// Path is the device or file, with the kernel's octal escapes undone
	// (a deleted swap file ends in " (deleted)").
	Path string
	// Type is "partition" or "file".
	Type string
	// SizeBytes and UsedBytes are the area's size and use (given in KiB).
	SizeBytes, UsedBytes int64
	// Priority is the swap priority; higher is used first.
	Priority int
}

// maxSwapKiB bounds the sizes read (2^52 KiB, far beyond any area), so
// that the byte counts cannot overflow.
const maxSwapKiB = 1 << 52

// ParseSwaps parses /proc/swaps. The header and malformed lines (fewer than
// five fields, sizes that are not counts) are skipped.
func ParseSwaps(data []byte) []Swap {
	var out []Swap
	for line := range strings.SplitSeq(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) < 5 || f[0] == "Filename" {
			continue
		}
		size, err1 := strconv.ParseInt(f[2], 10, 64)
		used, err2 := strconv.ParseInt(f[3], 10, 64)
		prio, err3 := strconv.Atoi(f[4])
		if err1 != nil || err2 != nil || err3 != nil || size < 0 || used < 0 ||
			size > maxSwapKiB || used > maxSwapKiB {
			continue
		}
		out = append(out, Swap{Path: unescapeOctal(f[0]), Type: f[1],
			SizeBytes: size * 1024, UsedBytes: used * 1024, Priority: prio})
	}
	return out
}

// ReadSwaps reads and parses /proc/swaps.
func ReadSwaps(r Reader) ([]Swap, error) {
	data, err := r.ReadFile("/proc/swaps")
	if err != nil {
		return nil, err
	}
	return ParseSwaps(data), nil
}
