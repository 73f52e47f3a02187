package kernelfile

import (
	"math"
	"strconv"
	"strings"
)

// ParseLoadavg returns the 1-minute load average of /proc/loadavg
// ("0.52 0.58 0.59 1/467 12345"); ok is false when it is missing, negative,
// infinite or not a number.
func ParseLoadavg(data []byte) (float64, bool) {
	f := strings.Fields(string(data))
	if len(f) < 1 {
		return 0, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	return v, err == nil && v >= 0 && !math.IsInf(v, 0)
}
