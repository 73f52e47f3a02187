package kernelfile

import "strings"

// SharedWritableMaps returns the devices ("MAJOR:MINOR" in decimal, as in
// /sys/class/block/NAME/dev) of the files a process has mapped shared and
// writable, from /proc/PID/maps: lines whose permissions are "?w?s" and
// whose inode is not 0, e.g.
//
//	7f2a1c000000-7f2a1c800000 rw-s 00000000 b3:02 131090  /var/log/journal/x/system.journal
//
// (the device is in hexadecimal there). Writes to such a mapping reach the
// file's device without a write call. Each device is listed once, in the
// order met; malformed lines are skipped.
func SharedWritableMaps(s string) []string {
	var out []string
	seen := map[string]bool{}
	for line := range strings.SplitSeq(s, "\n") {
		f := strings.Fields(line)
		if len(f) < 5 || len(f[1]) != 4 || f[1][1] != 'w' || f[1][3] != 's' || f[4] == "0" {
			continue
		}
		dev, ok := parseDevNo(f[3], 16)
		if !ok || strings.HasPrefix(dev, "0:") || seen[dev] {
			continue
		}
		seen[dev] = true
		out = append(out, dev)
	}
	return out
}
