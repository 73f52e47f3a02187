package sbcimport

import (
	"fmt"
	"time"
)

func fmtSscanf(v string, a, b, c *int) (int, error) { return fmt.Sscanf(v, "%d.%d.%d", a, b, c) }

// sevenZipSingleSince is when 0.9.9 development builds started printing the
// 7-zip single column (the first log of that format in the reference data).
var sevenZipSingleSince = time.Date(2022, 11, 1, 0, 0, 0, 0, time.UTC)

// derivedDifferences are the known differences between a log's own row
// and the row derived from its figures, by log file and column.
var derivedDifferences = map[string]map[int]string{
	"4fea.txt": {
		1: "an early 0.9.9 build printed cpuinfo_max_freq in kHz as MHz (2361600/1900800 MHz)",
		6: "an early 0.9.9 build reported the first cluster's AES figure, not the highest",
	},
	"4ijy.txt": {1: "a 0.9.9 build showed the cpufreq maximum although the measured clock was 3.9% above it"},
	"4pgq.txt": {1: "only the little cluster was measured and compared with the big cluster's maximum"},
	"4qpr.txt": {0: "the first line names the run's mode (extensive) after the device; the row does not"},
	"4IT1.txt": {6: "openssl failed: the log's row shows 0 where the derivation has no value"},
}
