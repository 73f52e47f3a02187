// Package memmeasure is boardbench's one memory measurement, used by
// `boardbench mem` and by the memory phase of `boardbench run`: which CPUs
// to measure (one per core type, see cpu.CoreTypes), the plan (samples and
// sizes within a memory budget taken from the machine description), the
// bandwidth and latency from one CPU with the cache levels its latency curve
// shows, and the bandwidth of all CPUs at once. Both commands get the same
// figures, the same notes and the same schema (result.MemFigures and
// result.MemAllCoresFigures); they differ only in how many samples the plan
// takes.
package memmeasure

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strings"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/memory"
	"boardbench/internal/probe/membw"
	"boardbench/internal/probe/memlat"
	"boardbench/internal/result"
)

// Plan says how to measure.
type Plan struct {
	BandwidthSamples    int
	BandwidthSampleTime time.Duration
	LatencySamples      int
	LatencySampleTime   time.Duration
	// LatencyMaxBytes is the largest latency block wanted.
	LatencyMaxBytes int64
	// HugePages adds the huge-page latency pass where THP is available.
	HugePages bool
	// BudgetBytes bounds memory use (a quarter of MemAvailable); 0 means
	// UnknownBudget.
	BudgetBytes int64
	// MaxBufferBytes caps each bandwidth buffer and latency block (0: the
	// probes' own caps); LimitFlag names the option that set it, for notes.
	MaxBufferBytes int64
	LimitFlag      string
	// THPMode is the transparent huge page mode ("always", "madvise",
	// "never", "" when not exposed); HugePageBytes the huge page size (0
	// when unknown).
	THPMode       string
	HugePageBytes int64
	// Progress, when set, is called as the work advances with what is
	// being measured and the estimated seconds of work just done.
	Progress func(what string, seconds float64)
}

// UnknownBudget is the memory budget when MemAvailable is unknown.
const UnknownBudget = 96 * memlat.MiB

// RunPlan is the plan of the memory phase of `boardbench run` (about 5 s
// per core type; quick: 1-2 s).
func RunPlan(quick bool) Plan {
	if quick {
		return Plan{
			BandwidthSamples: 2, BandwidthSampleTime: 20 * time.Millisecond,
			LatencySamples: 1, LatencySampleTime: 2 * time.Millisecond,
			LatencyMaxBytes: 16 * memlat.MiB, MaxBufferBytes: 64 * memlat.MiB, LimitFlag: "--quick",
		}
	}
	return Plan{
		BandwidthSamples: 3, BandwidthSampleTime: 60 * time.Millisecond,
		LatencySamples: 2, LatencySampleTime: 6 * time.Millisecond,
		LatencyMaxBytes: 64 * memlat.MiB, HugePages: true,
	}
}

// CommandPlan is the plan of `boardbench mem`: more and longer samples,
// latency blocks up to 256 MiB (quick: 64 MiB).
func CommandPlan(quick bool) Plan {
	if quick {
		return Plan{
			BandwidthSamples: 3, BandwidthSampleTime: 30 * time.Millisecond,
			LatencySamples: 3, LatencySampleTime: 4 * time.Millisecond,
			LatencyMaxBytes: 64 * memlat.MiB, HugePages: true,
		}
	}
	return Plan{
		BandwidthSamples: 5, BandwidthSampleTime: 100 * time.Millisecond,
		LatencySamples: 3, LatencySampleTime: 10 * time.Millisecond,
		LatencyMaxBytes: 256 * memlat.MiB, HugePages: true,
	}
}

// ForMachine fills the budget (a quarter of MemAvailable) and the huge page
// facts from the machine description.
func (p Plan) ForMachine(info *inventory.Info) Plan {
	if a := info.Memory.AvailableBytes; a != nil && *a > 0 {
		p.BudgetBytes = *a / 4
	}
	if thp := info.Memory.TransparentHugePages; thp != nil && thp.Enabled != nil {
		p.THPMode = thp.Enabled.Selected
	}
	if hp := info.Memory.HugePageSizeBytes; hp != nil {
		p.HugePageBytes = *hp
	}
	return p
}

// CPUs picks the CPUs to measure: the first usable CPU of each core type
// (cpu.CoreTypes), in CPU order; with no cluster information, the first
// usable CPU. `run` picks the same ones unless a CPU cannot be pinned.
func CPUs(info cpu.Info, usable []int) []int {
	var out []int
	for _, t := range cpu.CoreTypes(info, usable) {
		if len(t.Candidates) > 0 {
			out = append(out, t.Candidates[0])
			if len(info.Clusters) == 0 {
				break
			}
		}
	}
	return out
}

// CoreOf returns the core type of cpu ("" when unknown).
func CoreOf(info cpu.Info, c int) string {
	for _, cl := range info.Clusters {
		for _, x := range cl.CPUs {
			if x == c {
				return cl.Core
			}
		}
	}
	return ""
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

// Measure measures bandwidth (C library memcpy and memset, Go copy, read,
// write, non-temporal write) and the latency curve from cpu, and finds the
// cache levels in the curve. It stops between kernels and block sizes when
// ctx is done, returning what it has with ctx's error; a CPU that cannot be
// pinned is a *PinError.
func Measure(ctx context.Context, h *host.Host, cpuID int, core string, plan Plan) (result.MemFigures, error) {
	fig := result.MemFigures{CPU: cpuID, Core: core, Latency: []result.LatencyRow{}, CacheLevels: []result.CacheLevel{}}
	unpin, err := host.PinThread(cpuID)
	if err != nil {
		return fig, &PinError{CPU: cpuID, Err: err}
	}
	unpin()
	budget := plan.BudgetBytes
	if budget <= 0 {
		budget = UnknownBudget
		fig.Notes = append(fig.Notes, fmt.Sprintf("available memory unknown: memory use kept to %d MiB", UnknownBudget>>20))
	}
	caches, cacheNotes := memlat.ReadCaches(h, cpuID)
	for _, n := range cacheNotes {
		fig.Notes = append(fig.Notes, n.Item+": "+n.Reason)
	}
	fig.SysfsCaches = sysfsCaches(caches)
	llc := memlat.LargestCache(caches)
	if llc == 0 {
		fig.Notes = append(fig.Notes, "last-level cache size unknown: bandwidth buffer sized without it")
	}
	size, reasons := membw.BufferSize(llc, budget, plan.MaxBufferBytes)
	for _, why := range reasons {
		// The probe names `mem`'s flag; name the limit of this plan.
		limit := plan.LimitFlag
		if limit == "" {
			limit = "the plan's size limit"
		}
		fig.Notes = append(fig.Notes, strings.ReplaceAll(why, "--max-size", limit))
	}
	fig.BufferBytes = size
	label := fmt.Sprintf("cpu%d", cpuID)

	bw := membw.Config{BufferBytes: size, Samples: plan.BandwidthSamples, SampleTime: plan.BandwidthSampleTime, Stop: ctx.Done()}
	if plan.Progress != nil {
		w := KernelSeconds(bw)
		bw.Progress = func(done, total int) { plan.Progress(label+" bandwidth", w) }
	}
	figs, err := membw.MeasureCPU(cpuID, host.PinThread, bw)
	fig.Notes = append(fig.Notes, fillBandwidth(&fig.MemBandwidth, &fig.BandwidthDetail, figs)...)
	if errors.Is(err, membw.ErrStopped) || ctx.Err() != nil {
		return fig, ctx.Err()
	} else if err != nil {
		fig.Notes = append(fig.Notes, "bandwidth: "+err.Error())
	}

	lat := latencyConfig(h, cpuID, plan, budget, &fig.Notes)
	lat.Stop = ctx.Done()
	if plan.Progress != nil {
		w := LatencyPointSeconds(lat)
		lat.Progress = func(done, total int) { plan.Progress(label+" latency", w) }
	}
	if lat.HugePages {
		lat.AnonHugeBytes = memory.AnonHugePagesReader(h)
	}
	res, err := memlat.Measure(cpuID, host.PinThread, lat)
	if errors.Is(err, memlat.ErrStopped) || ctx.Err() != nil {
		return fig, ctx.Err()
	} else if err != nil {
		fig.Notes = append(fig.Notes, "latency: "+err.Error())
		return fig, nil
	}
	fig.LineBytes = res.LineBytes
	fig.HugePages = hugePageCheck(res.HugePages)
	if res.HugePagesNote != "" {
		fig.Notes = append(fig.Notes, "huge-page latency: "+res.HugePagesNote)
	}
	for _, pt := range res.Points {
		fig.Latency = append(fig.Latency, result.LatencyRow{SizeBytes: pt.SizeBytes, NS: round2p(pt.NS), NSDual: round2p(pt.NSDual),
			NSHugePage: round2p(pt.NSHugePage), NSDualHugePage: round2p(pt.NSDualHugePage)})
	}
	an := memlat.Analyze(res, caches)
	if an.HugePagesShort != "" {
		fig.Notes = append(fig.Notes, "huge-page latency: huge pages requested, but "+an.HugePagesShort)
	}
	fig.CacheLevelsFrom = "ns"
	if an.FromHugePages {
		fig.CacheLevelsFrom = "ns_hugepage"
	}
	for _, l := range an.Levels {
		fig.CacheLevels = append(fig.CacheLevels, result.CacheLevel{DetectedBytes: l.DetectedBytes, LatencyNS: round2(l.LatencyNS), SysfsLevel: l.SysfsLevel, SysfsBytes: l.SysfsBytes})
	}
	fig.LatencyStillRising = an.StillRising
	if sizes := an.Sizes; llc > 0 && len(sizes) > 0 && sizes[len(sizes)-1] <= 2*llc {
		fig.Notes = append(fig.Notes, "latency: the largest block is not well beyond the last-level cache: its latency is not main memory's")
	}
	return fig, nil
}

// latencyConfig sizes the latency curve within the budget and the plan's
// limit, with the huge-page pass where THP allows it.
func latencyConfig(h *host.Host, cpuID int, plan Plan, budget int64, notes *[]string) memlat.Config {
	lat := memlat.Config{Samples: plan.LatencySamples, SampleTime: plan.LatencySampleTime, Seed: 1}
	if line, err := h.ReadInt(fmt.Sprintf("/sys/devices/system/cpu/cpu%d/cache/index0/coherency_line_size", cpuID)); err == nil && line >= 16 && line <= 256 && line&(line-1) == 0 {
		lat.LineBytes = int(line)
	}
	// The chain scratch array takes 1/16 of the block beside the block.
	lat.MaxBytes = floorPow2(min(plan.LatencyMaxBytes, budget*16/17))
	why := "available memory"
	if plan.MaxBufferBytes > 0 && lat.MaxBytes > floorPow2(plan.MaxBufferBytes) && plan.LimitFlag != "" {
		lat.MaxBytes = floorPow2(plan.MaxBufferBytes)
		why = plan.LimitFlag
	}
	if lat.MaxBytes < plan.LatencyMaxBytes {
		*notes = append(*notes, fmt.Sprintf("latency: largest block %d MiB (limited by %s); main memory latency may be underestimated", lat.MaxBytes>>20, why))
	}
	switch {
	case !plan.HugePages:
	case plan.THPMode == "":
		*notes = append(*notes, "huge-page latency: transparent huge pages not exposed by this kernel")
	case plan.THPMode == "never":
		*notes = append(*notes, "huge-page latency: transparent huge pages are disabled (never)")
	case plan.HugePageBytes > 32*memlat.MiB:
		*notes = append(*notes, fmt.Sprintf("huge-page latency: huge pages of %d MiB are too large for the latency blocks", plan.HugePageBytes>>20))
	default:
		lat.HugePages = true
		lat.HugePageBytes = plan.HugePageBytes
	}
	return lat
}

// MeasureAll measures the bandwidth of all cpus at once, each on its slice
// of buffers sized from llc (the largest last-level cache, 0 when unknown).
func MeasureAll(ctx context.Context, cpus []int, llc int64, plan Plan) (result.MemAllCoresFigures, error) {
	budget := plan.BudgetBytes
	if budget <= 0 {
		budget = UnknownBudget
	}
	size, _ := membw.BufferSize(llc, budget, plan.MaxBufferBytes)
	slice := membw.SliceSize(size, budget, len(cpus))
	fig := result.MemAllCoresFigures{CPUs: append([]int{}, cpus...), SliceBytes: slice}
	bw := membw.Config{BufferBytes: slice, Samples: max(plan.BandwidthSamples-2, 3), SampleTime: plan.BandwidthSampleTime, Stop: ctx.Done()}
	if plan.Progress != nil {
		w := KernelSeconds(bw)
		bw.Progress = func(done, total int) { plan.Progress("all CPUs bandwidth", w) }
	}
	figs, err := membw.MeasureAll(cpus, host.PinThread, bw)
	fig.Notes = append(fig.Notes, fillBandwidth(&fig.MemBandwidth, &fig.BandwidthDetail, figs)...)
	if errors.Is(err, membw.ErrStopped) || ctx.Err() != nil {
		return fig, ctx.Err()
	} else if err != nil {
		fig.Notes = append(fig.Notes, "bandwidth: "+err.Error())
	}
	return fig, nil
}

// fillBandwidth copies the figures (rounded to 0.1 MB/s) with their samples
// and returns notes for kernels that could not run.
func fillBandwidth(b *result.MemBandwidth, d *result.BandwidthDetail, figs []membw.Figure) []string {
	var notes []string
	for _, f := range figs {
		mbs, sd := b.Slots(string(f.Kernel))
		if mbs == nil {
			continue
		}
		if f.MBs == nil {
			why := f.Note
			if why == "" {
				why = "not measured"
			}
			notes = append(notes, f.Kernel.Label()+": "+why)
			continue
		}
		v, s := round1(*f.MBs), round2(f.Summary.RelStdDevPct)
		*mbs, *sd = &v, &s
		if d.Samples == nil {
			d.Samples, d.PassesPerSample = map[string]result.BandwidthSamples{}, map[string]int{}
		}
		key := string(f.Kernel) + "_mb_s"
		d.Samples[key] = result.BandwidthSamples{MBs: f.Summary.Samples, Median: f.Summary.Median, RelStdDevPct: f.Summary.RelStdDevPct}
		d.PassesPerSample[key] = f.PassesPerSample
		if f.Kernel == membw.NTWrite {
			d.NTWriteInstruction = ntInstruction(f.Kernel.Label())
		}
	}
	return notes
}

// ntInstruction extracts "MOVNTDQ" from "non-temporal write (MOVNTDQ)".
func ntInstruction(label string) string {
	for i := len(label) - 1; i >= 0; i-- {
		if label[i] == '(' {
			return label[i+1 : len(label)-1]
		}
	}
	return ""
}

// KernelSeconds is the estimated time of one bandwidth kernel.
func KernelSeconds(c membw.Config) float64 {
	return float64(c.Samples+1) * c.SampleTime.Seconds()
}

// LatencyPointSeconds is the estimated time of one latency block.
func LatencyPointSeconds(c memlat.Config) float64 {
	s, t := c.Samples, c.SampleTime
	if s <= 0 {
		s = memlat.DefaultSamples
	}
	if t <= 0 {
		t = memlat.DefaultSampleTime
	}
	return (2*float64(s)+1.5)*t.Seconds() + 0.001
}

// Estimate is the expected duration of measuring n CPUs (and all CPUs at
// once when usable ≥ 2), in seconds.
func Estimate(p Plan, n, usable int) float64 {
	kernels := float64(len(membw.AllKernels))
	bw := membw.Config{Samples: p.BandwidthSamples, SampleTime: p.BandwidthSampleTime}
	lat := memlat.Config{Samples: p.LatencySamples, SampleTime: p.LatencySampleTime}
	sizes := float64(len(memlat.Sizes(memlat.DefaultMinBytes, max(p.LatencyMaxBytes, memlat.DefaultMinBytes), memlat.DefaultLineBytes)))
	if p.HugePages {
		sizes *= 2
	}
	total := float64(n) * (kernels*KernelSeconds(bw) + sizes*LatencyPointSeconds(lat))
	if usable >= 2 {
		bw.Samples = max(bw.Samples-2, 3)
		total += kernels * KernelSeconds(bw)
	}
	return total
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

// sysfsCaches converts memlat's caches to the result schema's (nil stays
// nil: the field is left out).
func sysfsCaches(cs []memlat.SysfsCache) []result.SysfsCache {
	if cs == nil {
		return nil
	}
	out := make([]result.SysfsCache, len(cs))
	for i, c := range cs {
		out[i] = result.SysfsCache(c)
	}
	return out
}

// hugePageCheck converts memlat's huge-page check to the result schema's.
func hugePageCheck(c *memlat.HugePageCheck) *result.HugePageCheck {
	if c == nil {
		return nil
	}
	r := result.HugePageCheck(*c)
	return &r
}
