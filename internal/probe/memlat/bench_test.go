package memlat

import (
	"testing"

	"boardbench/internal/host"
)

// BenchmarkMeasure runs the default latency curve (1 KiB..64 MiB, normal
// and huge pages) on CPU 0, logs it and reports the 4 KiB and 64 MiB
// figures; its time per operation is what one core type's curve costs.
func BenchmarkMeasure(b *testing.B) {
	for b.Loop() {
		res, err := Measure(0, host.PinThread, Config{HugePages: true})
		if err != nil {
			b.Fatal(err)
		}
		var sizes []int64
		var ns []float64
		for _, p := range res.Points {
			f := func(v *float64) float64 {
				if v == nil {
					return -1
				}
				return *v
			}
			b.Logf("%9d  %7.2f %7.2f %7.2f %7.2f  (%d accesses)", p.SizeBytes, f(p.NS), f(p.NSDual), f(p.NSHugePage), f(p.NSDualHugePage), p.Accesses)
			sizes = append(sizes, p.SizeBytes)
			ns = append(ns, f(p.NS))
			switch p.SizeBytes {
			case 4 * KiB:
				b.ReportMetric(f(p.NS), "ns_4KiB")
			case 64 * MiB:
				b.ReportMetric(f(p.NS), "ns_64MiB")
				b.ReportMetric(f(p.NSHugePage), "ns_64MiB_huge")
			}
		}
		b.Logf("levels: %+v note %q huge %+v", DetectLevels(sizes, ns), res.HugePagesNote, res.HugePages)
	}
}
