package benchrun

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strings"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/inventory/memory"
	"boardbench/internal/probe/membw"
	"boardbench/internal/probe/memlat"
	"boardbench/internal/result"
)

// MemoryPlan says how the memory phase measures: a compact version of
// `boardbench mem` (fewer, shorter samples) that still gives every figure.
type MemoryPlan struct {
	BandwidthSamples    int
	BandwidthSampleTime time.Duration
	LatencySamples      int
	LatencySampleTime   time.Duration
	// LatencyMaxBytes is the largest latency block wanted.
	LatencyMaxBytes int64
	// HugePages adds the huge-page latency pass where THP is available.
	HugePages bool
	// BudgetBytes bounds memory use (a quarter of MemAvailable); 0 means
	// 96 MiB.
	BudgetBytes int64
	// MaxBufferBytes caps each bandwidth buffer (0: the bandwidth probe's
	// own cap).
	MaxBufferBytes int64
	// THPMode is the transparent huge page mode ("always", "madvise",
	// "never", "" when not exposed).
	THPMode string
}

// StandardMemoryPlan is the plan of a standard run: about 5 s per core type.
func StandardMemoryPlan() MemoryPlan {
	return MemoryPlan{
		BandwidthSamples: 3, BandwidthSampleTime: 60 * time.Millisecond,
		LatencySamples: 2, LatencySampleTime: 6 * time.Millisecond,
		LatencyMaxBytes: 64 * memlat.MiB, HugePages: true,
	}
}

// QuickMemoryPlan is the plan of --quick: about 1-2 s per core type.
func QuickMemoryPlan() MemoryPlan {
	return MemoryPlan{
		BandwidthSamples: 2, BandwidthSampleTime: 20 * time.Millisecond,
		LatencySamples: 1, LatencySampleTime: 2 * time.Millisecond,
		LatencyMaxBytes: 16 * memlat.MiB, MaxBufferBytes: 64 * memlat.MiB,
	}
}

// PinError says that a CPU could not be pinned (offline, not allowed).
type PinError struct {
	CPU int
	Err error
}

// Error describes the pinning failure.
func (e *PinError) Error() string { return fmt.Sprintf("cpu%d: cannot pin: %v", e.CPU, e.Err) }

// Unwrap returns the underlying error.
func (e *PinError) Unwrap() error { return e.Err }

// unknownBudget is the memory budget when MemAvailable is unknown.
const unknownBudget = 96 * memlat.MiB

// MeasureMemory measures bandwidth (C library memcpy and memset, Go copy,
// read, write, non-temporal write) and the latency curve from cpu, and finds
// the cache levels in the curve. It stops between kernels and block sizes
// when ctx is done, returning what it has with ctx's error.
func MeasureMemory(ctx context.Context, h *host.Host, cpu int, core string, plan MemoryPlan) (result.MemFigures, error) {
	fig := result.MemFigures{CPU: cpu, Core: core, Latency: []result.LatencyRow{}, CacheLevels: []result.CacheLevel{}}
	unpin, err := host.PinThread(cpu)
	if err != nil {
		return fig, &PinError{CPU: cpu, Err: err}
	}
	unpin()
	budget := plan.BudgetBytes
	if budget <= 0 {
		budget = unknownBudget
		fig.Notes = append(fig.Notes, fmt.Sprintf("available memory unknown: memory use kept to %d MiB", unknownBudget>>20))
	}
	caches, _ := memlat.ReadCaches(h, cpu)
	llc := memlat.LargestCache(caches)
	if llc == 0 {
		fig.Notes = append(fig.Notes, "last-level cache size unknown: bandwidth buffer sized without it")
	}
	size, reasons := membw.BufferSize(llc, budget, plan.MaxBufferBytes)
	fig.Notes = append(fig.Notes, reasons...)
	fig.BufferBytes = size

	bw := membw.Config{BufferBytes: size, Samples: plan.BandwidthSamples, SampleTime: plan.BandwidthSampleTime, Stop: ctx.Done()}
	figs, err := membw.MeasureCPU(cpu, host.PinThread, bw)
	fillBandwidth(&fig, figs)
	if errors.Is(err, membw.ErrStopped) || ctx.Err() != nil {
		return fig, ctx.Err()
	} else if err != nil {
		fig.Notes = append(fig.Notes, "bandwidth: "+err.Error())
	}

	lat := memlat.Config{Samples: plan.LatencySamples, SampleTime: plan.LatencySampleTime, Seed: 1, Stop: ctx.Done()}
	if line, err := h.ReadInt(fmt.Sprintf("/sys/devices/system/cpu/cpu%d/cache/index0/coherency_line_size", cpu)); err == nil && line >= 16 && line <= 256 && line&(line-1) == 0 {
		lat.LineBytes = int(line)
	}
	lat.MaxBytes = floorPow2(min(plan.LatencyMaxBytes, budget*16/17))
	if lat.MaxBytes < plan.LatencyMaxBytes {
		fig.Notes = append(fig.Notes, fmt.Sprintf("latency: largest block %d MiB (limited by available memory)", lat.MaxBytes>>20))
	}
	if plan.HugePages && plan.THPMode != "" && plan.THPMode != "never" {
		lat.HugePages = true
		lat.AnonHugeBytes = memory.AnonHugePagesReader(h)
	}
	res, err := memlat.Measure(cpu, host.PinThread, lat)
	if errors.Is(err, memlat.ErrStopped) || ctx.Err() != nil {
		return fig, ctx.Err()
	} else if err != nil {
		fig.Notes = append(fig.Notes, "latency: "+err.Error())
		return fig, nil
	}
	fig.LineBytes = res.LineBytes
	if res.HugePagesNote != "" {
		fig.Notes = append(fig.Notes, "huge-page latency: "+res.HugePagesNote)
	}
	for _, pt := range res.Points {
		fig.Latency = append(fig.Latency, result.LatencyRow{SizeBytes: pt.SizeBytes, NS: round2p(pt.NS), NSDual: round2p(pt.NSDual),
			NSHugePage: round2p(pt.NSHugePage), NSDualHugePage: round2p(pt.NSDualHugePage)})
	}
	an := memlat.Analyze(res, caches)
	if an.HugePagesShort != "" {
		fig.Notes = append(fig.Notes, "huge-page latency: "+an.HugePagesShort)
	}
	for _, l := range an.Levels {
		fig.CacheLevels = append(fig.CacheLevels, result.CacheLevel{DetectedBytes: l.DetectedBytes, LatencyNS: round2(l.LatencyNS), SysfsLevel: l.SysfsLevel, SysfsBytes: l.SysfsBytes})
	}
	fig.LatencyStillRising = an.StillRising
	return fig, nil
}

// fillBandwidth copies the bandwidth figures (rounded to 0.1 MB/s) and
// notes kernels that could not run.
func fillBandwidth(fig *result.MemFigures, figs []membw.Figure) {
	for _, f := range figs {
		mbs, sd := fig.Slots(string(f.Kernel))
		if mbs == nil {
			continue
		}
		if f.MBs == nil {
			why := f.Note
			if why == "" {
				why = "not measured"
			}
			fig.Notes = append(fig.Notes, strings.TrimSpace(f.Kernel.Label()+": "+why))
			continue
		}
		v, s := round1(*f.MBs), round2(f.Summary.RelStdDevPct)
		*mbs, *sd = &v, &s
	}
}

func floorPow2(n int64) int64 {
	if n <= 0 {
		return 0
	}
	return 1 << (63 - bits.LeadingZeros64(uint64(n)))
}

func round1(v float64) float64 { return math.Round(v*10) / 10 }
func round2(v float64) float64 { return math.Round(v*100) / 100 }

func round2p(v *float64) *float64 {
	if v == nil {
		return nil
	}
	r := round2(*v)
	return &r
}

// asPinError reports whether err is a *PinError and stores it in target.
func asPinError(err error, target **PinError) bool { return errors.As(err, target) }
