package tools

import (
	"boardbench/internal/lazyre"
	"context"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/note"
)

// FlavorIperf3 is iperf3, the network throughput tool `boardbench net`
// drives.
const FlavorIperf3 Flavor = "iperf3"

// iperf3Version matches the first line of `iperf3 --version`: "iperf 3.12
// (cJSON 1.7.15)".
var iperf3Version = lazyre.Regexp(`^iperf ([0-9]+\.[0-9]+(?:\.[0-9]+)?[^ ]*)`)

// ParseIperf3Version reads the version from `iperf3 --version`; ok is false
// without a version line.
func ParseIperf3Version(out string) (t Tool, ok bool) {
	for _, line := range strings.Split(out, "\n") {
		line = strings.TrimSpace(line)
		if m := iperf3Version.FindStringSubmatch(line); m != nil {
			return Tool{VersionLine: line, Version: m[1], Flavor: FlavorIperf3, Comparable: true,
				ComparableReason: "iperf3 measures the network, not the build"}, true
		}
	}
	return Tool{}, false
}

// FindIperf3 finds iperf3 on PATH and identifies it; nil with a note when it
// is not installed or does not say its version.
func FindIperf3(ctx context.Context, h *host.Host) (*Tool, note.List) {
	return toolSpec{name: "iperf3", version: ParseIperf3Version}.find(ctx, h)
}
