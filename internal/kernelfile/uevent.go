package kernelfile

import "strings"

// ParseUevent parses a sysfs uevent file ("DEVTYPE=wlan" per line) into
// its keys and values; a repeated key keeps its last value, lines without
// "=" are skipped.
func ParseUevent(s string) map[string]string {
	out := map[string]string{}
	for line := range strings.SplitSeq(s, "\n") {
		if k, v, ok := strings.Cut(strings.TrimSpace(line), "="); ok && k != "" {
			out[k] = v
		}
	}
	return out
}
