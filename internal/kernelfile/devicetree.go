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
