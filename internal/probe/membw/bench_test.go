package membw

import (
	"testing"
	"time"

	"boardbench/internal/host"
)

// BenchmarkMeasureCPU runs the whole single-CPU measurement on CPU 0 with
// 32 MiB buffers and reports each kernel's median MB/s; its time per
// operation is the time one core-type measurement spends on bandwidth.
func BenchmarkMeasureCPU(b *testing.B) {
	cfg := Config{BufferBytes: 32 * MiB, Samples: 5, SampleTime: 100 * time.Millisecond}
	for b.Loop() {
		figs, err := MeasureCPU(0, host.PinThread, cfg)
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range figs {
			if f.MBs != nil {
				b.ReportMetric(*f.MBs, string(f.Kernel)+"_MB/s")
				b.ReportMetric(f.Summary.RelStdDevPct, string(f.Kernel)+"_sd%")
			}
		}
	}
}

// BenchmarkMeasureAll measures all allowed CPUs at once.
func BenchmarkMeasureAll(b *testing.B) {
	cpus, err := host.AllowedCPUs()
	if err != nil {
		b.Fatal(err)
	}
	cfg := Config{BufferBytes: SliceSize(32*MiB, 0, len(cpus)), Samples: 3, SampleTime: 100 * time.Millisecond}
	for b.Loop() {
		figs, err := MeasureAll(cpus, host.PinThread, cfg)
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range figs {
			if f.MBs != nil {
				b.ReportMetric(*f.MBs, string(f.Kernel)+"_MB/s")
			}
		}
	}
}
