package c2c

import (
	"testing"

	"boardbench/internal/host"
)

// BenchmarkPair measures the first two usable CPUs and reports the median
// round trip; its time per operation is what one pair costs.
func BenchmarkPair(b *testing.B) {
	cpus, err := host.AllowedCPUs()
	if err != nil || len(cpus) < 2 {
		b.Skip("needs two CPUs")
	}
	for b.Loop() {
		p := MeasurePair(cpus[0], cpus[1], host.PinThread, Config{})
		if p.NS == nil {
			b.Fatal(p.Error)
		}
		b.ReportMetric(*p.NS, "ns_round_trip")
		b.ReportMetric(p.Summary.RelStdDevPct, "sd%")
	}
}
