package memmeasure

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/probe/membw"
	"boardbench/internal/probe/memlat"
	"boardbench/internal/result"
	"boardbench/internal/session"
)

// DefaultThrottleLoad is the load of `mem --throttle-test`: five minutes,
// as long as the bash tool sbc-bench's heavy load between its two AES
// measurements.
const DefaultThrottleLoad = 5 * time.Minute

// BandwidthFunc measures the bandwidth of cpus at once under cfg:
// membw.MeasureAll with host.PinThread in a real run, a fake in tests.
type BandwidthFunc func(ctx context.Context, cpus []int, cfg membw.Config) ([]membw.Figure, error)

// MeasureAllCPUs is the real BandwidthFunc.
func MeasureAllCPUs(ctx context.Context, cpus []int, cfg membw.Config) ([]membw.Figure, error) {
	cfg.Stop = ctx.Done()
	return membw.MeasureAll(cpus, host.PinThread, cfg)
}

// ThrottlePlan is the plan of a memory-controller throttling test: the
// bandwidth of all CPUs, a long memory load, the same bandwidth again.
type ThrottlePlan struct {
	// Plan gives the buffer sizes (budget, --max-size).
	Plan Plan
	// Load is the load's duration (DefaultThrottleLoad).
	Load time.Duration
	// Samples and SampleTime are per kernel, before and after.
	Samples    int
	SampleTime time.Duration
	// Chunk is one stretch of the load (one point of its series).
	Chunk time.Duration
	// LLCBytes is the largest last-level cache (0 when unknown).
	LLCBytes int64
	// Measure measures bandwidth; Now tells the time for the load's
	// deadline and series (time.Now in a real run).
	Measure BandwidthFunc
	Now     func() time.Time
}

// NewThrottlePlan is the plan of `mem --throttle-test`: 7 samples of
// 200 ms per kernel before and after (quick: 5 of 100 ms), the load in
// stretches of one second.
func NewThrottlePlan(quick bool, load time.Duration) ThrottlePlan {
	p := ThrottlePlan{Load: load, Samples: 7, SampleTime: 200 * time.Millisecond, Chunk: time.Second,
		Measure: MeasureAllCPUs, Now: time.Now}
	if quick {
		p.Samples, p.SampleTime = 5, 100*time.Millisecond
	}
	return p
}

// kernels are the kernels measured before and after.
func throttleKernels() []membw.Kernel {
	out := make([]membw.Kernel, len(result.MemThrottleKernels))
	for i, k := range result.MemThrottleKernels {
		out[i] = membw.Kernel(k)
	}
	return out
}

// Estimate is the expected duration of the whole test.
func (p ThrottlePlan) Estimate() time.Duration {
	one := time.Duration(len(result.MemThrottleKernels)*(p.Samples+1)) * p.SampleTime
	return 2*one + p.Load
}

// ThrottleFigures are what the steps measured, filled as they run.
type ThrottleFigures struct {
	Before, After *result.MemAllCoresFigures
	Load          *result.MemLoadFigures
}

// ThrottleSteps is the plan of `boardbench mem --throttle-test` on cpus
// (all usable CPUs): before, load, after. Each step records its figures
// in its phase and in out.
func ThrottleSteps(cpus []int, p ThrottlePlan, out *ThrottleFigures) []session.Step {
	budget := p.Plan.BudgetBytes
	if budget <= 0 {
		budget = UnknownBudget
	}
	size, _ := membw.BufferSize(p.LLCBytes, budget, p.Plan.MaxBufferBytes)
	slice := membw.SliceSize(size, budget, len(cpus))
	bandwidth := func(name string, dst **result.MemAllCoresFigures) session.Step {
		title := "Memory bandwidth of all CPUs before the load"
		if name == result.PhaseMemThrottleAfter {
			title = "Memory bandwidth of all CPUs after the load"
		}
		one := time.Duration(len(result.MemThrottleKernels)*(p.Samples+1)) * p.SampleTime
		return session.Step{Name: name, Title: title, CPUs: cpus, Kind: "memory", Estimate: one,
			Run: func(ctx context.Context, ph *result.Phase) error {
				fig := result.MemAllCoresFigures{CPUs: append([]int{}, cpus...), SliceBytes: slice}
				figs, err := p.Measure(ctx, cpus, membw.Config{BufferBytes: slice, Samples: p.Samples, SampleTime: p.SampleTime, Kernels: throttleKernels()})
				fig.Notes = append(fig.Notes, fillBandwidth(&fig.MemBandwidth, &fig.BandwidthDetail, figs)...)
				if err != nil && !stopped(ctx, err) {
					fig.Notes = append(fig.Notes, "bandwidth: "+err.Error())
				}
				if ctx.Err() == nil {
					*dst = &fig
				}
				if ferr := ph.SetFigures(fig); ferr != nil {
					return ferr
				}
				if stopped(ctx, err) {
					return ctx.Err()
				}
				return nil
			}}
	}
	load := session.Step{Name: result.PhaseMemThrottleLoad, Title: fmt.Sprintf("Memory load on all CPUs for %s", p.Load), CPUs: cpus, Kind: "memory-load", Estimate: p.Load,
		Run: func(ctx context.Context, ph *result.Phase) error {
			fig, err := p.runLoad(ctx, cpus, slice)
			if ctx.Err() == nil {
				out.Load = &fig
			}
			if ferr := ph.SetFigures(fig); ferr != nil {
				return ferr
			}
			return err
		}}
	return []session.Step{bandwidth(result.PhaseMemThrottleBefore, &out.Before), load, bandwidth(result.PhaseMemThrottleAfter, &out.After)}
}

// runLoad copies memory on all cpus in stretches of p.Chunk until p.Load
// has passed on p.Now's clock, recording each stretch's bandwidth.
func (p ThrottlePlan) runLoad(ctx context.Context, cpus []int, slice int64) (result.MemLoadFigures, error) {
	fig := result.MemLoadFigures{CPUs: append([]int{}, cpus...), Kernel: string(membw.Memcpy), SliceBytes: slice,
		RequestedS: p.Load.Seconds(), Series: []result.MemLoadPoint{}}
	begin := p.Now()
	deadline := begin.Add(p.Load)
	cfg := membw.Config{BufferBytes: slice, Samples: 1, SampleTime: p.Chunk, Kernels: []membw.Kernel{membw.Memcpy}}
	var err error
	for p.Now().Before(deadline) && ctx.Err() == nil {
		var figs []membw.Figure
		figs, err = p.Measure(ctx, cpus, cfg)
		if err != nil {
			break
		}
		for _, f := range figs {
			if f.Kernel == membw.Memcpy && f.MBs != nil {
				fig.Series = append(fig.Series, result.MemLoadPoint{TS: math.Round(p.Now().Sub(begin).Seconds()*10) / 10, MBs: math.Round(*f.MBs*10) / 10})
			}
		}
	}
	fig.DurationS = math.Round(p.Now().Sub(begin).Seconds()*10) / 10
	fig.FirstLast()
	if stopped(ctx, err) {
		fig.Notes = append(fig.Notes, "load interrupted")
		return fig, ctx.Err()
	}
	if err != nil {
		fig.Notes = append(fig.Notes, "load: "+err.Error())
		return fig, err
	}
	return fig, nil
}

// stopped reports whether err or ctx says the measurement was stopped.
func stopped(ctx context.Context, err error) bool {
	return ctx.Err() != nil || errors.Is(err, membw.ErrStopped)
}

// ForMachine fills the plan's buffer budget and limit from the machine
// (plan: the command's Plan after Plan.ForMachine, with its size limit)
// and the largest last-level cache from the first of cpus.
func (p ThrottlePlan) ForMachine(h *host.Host, plan Plan, cpus []int) ThrottlePlan {
	p.Plan = plan
	if len(cpus) > 0 {
		caches, _ := memlat.ReadCaches(h, cpus[0])
		p.LLCBytes = memlat.LargestCache(caches)
	}
	return p
}

// ThrottleReport sums up a throttling test from its result: the
// comparison of before and after, and the memory clock of each phase.
type ThrottleReport struct {
	Before  *result.MemAllCoresFigures `json:"before"`
	Load    *result.MemLoadFigures     `json:"load"`
	After   *result.MemAllCoresFigures `json:"after"`
	Changes []result.MemKernelChange   `json:"changes"`
	// MemClockBefore, MemClockLoad and MemClockAfter are the memory
	// controller's clock during each phase; nil where none was sampled.
	MemClockBefore *result.MemClock `json:"mem_clock_before"`
	MemClockLoad   *result.MemClock `json:"mem_clock_load"`
	MemClockAfter  *result.MemClock `json:"mem_clock_after"`
}

// NewThrottleReport builds the report from the figures and r's samples.
func NewThrottleReport(r *result.Result, out *ThrottleFigures) ThrottleReport {
	rep := ThrottleReport{Before: out.Before, Load: out.Load, After: out.After, Changes: result.CompareMemThrottle(out.Before, out.After)}
	dev := r.Monitor.MemClock
	for _, p := range r.Phases {
		switch p.Name {
		case result.PhaseMemThrottleBefore:
			rep.MemClockBefore = result.MemClockOf(dev, p.Samples)
		case result.PhaseMemThrottleLoad:
			rep.MemClockLoad = result.MemClockOf(dev, p.Samples)
		case result.PhaseMemThrottleAfter:
			rep.MemClockAfter = result.MemClockOf(dev, p.Samples)
		}
	}
	return rep
}
