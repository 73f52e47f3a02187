package kernelfile

import (
	"strconv"
	"strings"
)

// ParsePIDIO returns write_bytes of a /proc/PID/io file: the bytes the
// process caused to be written to storage.
func ParsePIDIO(s string) (uint64, bool) {
	for line := range strings.SplitSeq(s, "\n") {
		if v, ok := strings.CutPrefix(line, "write_bytes:"); ok {
			n, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
			return n, err == nil
		}
	}
	return 0, false
}
