// Package clock measures the real clockspeed of a CPU core: it runs a chain
// of dependent one-cycle integer adds whose cycle count is known exactly
// (hand-written assembly for amd64, arm64, arm and riscv64) and divides it
// by the elapsed wall time. Other architectures use a Go fallback whose
// result is marked uncertain.
package clock

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/stats"

	"golang.org/x/sys/unix"
)

// Defaults for Options fields left zero.
const (
	DefaultSamples        = 5
	DefaultSampleDuration = 15 * time.Millisecond
	DefaultWarmup         = 20 * time.Millisecond
	// MaxSampleDuration bounds the calibrated duration of one sample.
	MaxSampleDuration = 100 * time.Millisecond
	// MaxOffCPUFraction is the share of a sample's wall time the thread may
	// spend off the CPU (preempted by another task) before the sample is
	// set aside as disturbed.
	MaxOffCPUFraction = 0.01
	// maxAttemptsPerSample bounds the retries of disturbed samples.
	maxAttemptsPerSample = 3
)

// Options tune a measurement; the zero value gives the defaults.
type Options struct {
	// Samples is the number of timed samples (default DefaultSamples).
	Samples int
	// SampleDuration is the calibrated length of one sample (default
	// DefaultSampleDuration, at most MaxSampleDuration).
	SampleDuration time.Duration
	// Warmup is how long the kernel spins before the first sample so that
	// cpufreq raises the clock (default DefaultWarmup).
	Warmup time.Duration
}

func (o Options) withDefaults() Options {
	if o.Samples <= 0 {
		o.Samples = DefaultSamples
	}
	if o.SampleDuration <= 0 {
		o.SampleDuration = DefaultSampleDuration
	}
	if o.SampleDuration > MaxSampleDuration {
		o.SampleDuration = MaxSampleDuration
	}
	if o.Warmup <= 0 {
		o.Warmup = DefaultWarmup
	}
	return o
}

// Result is one clock measurement of one CPU.
type Result struct {
	// CPU is the CPU the thread was pinned to, -1 when unpinned.
	CPU int
	// MHz is the median of the samples.
	MHz float64
	// Summary holds every sample in MHz, in the order taken, and their spread.
	Summary stats.Summary
	// Method is "asm-<arch>" or "portable".
	Method string
	// Certain is false when the kernel's cycles per iteration are not known
	// (the portable kernel): MHz is then only indicative.
	Certain bool
	// Iterations is the kernel iteration count of one sample.
	Iterations uint64
	// SampleDurations is the wall time of each sample in Summary.
	SampleDurations []time.Duration
	// Disturbed holds the clocks (MHz) of samples during which the thread
	// was off the CPU for more than MaxOffCPUFraction of the time; they are
	// left out of Summary and retaken (up to three attempts per sample).
	Disturbed []float64
	// AllDisturbed is true when no sample was undisturbed: Summary then
	// holds the disturbed samples and MHz reads low.
	AllDisturbed bool
}

// SpreadPct returns (max-min)/median of the samples in percent, 0 without
// samples.
func (r Result) SpreadPct() float64 {
	if r.Summary.Median == 0 {
		return 0
	}
	return 100 * (r.Summary.Max - r.Summary.Min) / r.Summary.Median
}

// MeanSampleDuration returns the average wall time of one sample.
func (r Result) MeanSampleDuration() time.Duration {
	if len(r.SampleDurations) == 0 {
		return 0
	}
	var sum time.Duration
	for _, d := range r.SampleDurations {
		sum += d
	}
	return sum / time.Duration(len(r.SampleDurations))
}

// MHzFrom converts a kernel run to a clock: ops per nanosecond are GHz.
func MHzFrom(iterations uint64, elapsed time.Duration) float64 {
	if elapsed <= 0 {
		return 0
	}
	return float64(iterations) * OpsPerIteration / float64(elapsed.Nanoseconds()) * 1000
}

// Measure pins the calling goroutine's thread to cpu (no pinning when cpu is
// negative), warms the core up, calibrates the kernel to opt.SampleDuration
// and returns the median clock of opt.Samples samples. Time is wall time;
// the thread's CPU time only tells which samples another task interrupted,
// and those are retaken (see Result.Disturbed). The garbage collector is run
// before and disabled during the timed part. It fails when the thread cannot
// be pinned (CPU offline or not allowed) or ctx is cancelled.
func Measure(ctx context.Context, cpu int, opt Options) (Result, error) {
	opt = opt.withDefaults()
	if cpu >= 0 {
		unpin, err := host.PinThread(cpu)
		if err != nil {
			return Result{}, err
		}
		defer unpin()
	} else {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		cpu = -1
	}
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}

	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1))

	iterations := calibrate(opt.Warmup, opt.SampleDuration)
	res := Result{CPU: cpu, Method: Method, Certain: Certain, Iterations: iterations}
	var clean []float64
	var disturbedDurations []time.Duration
	for attempt := 0; len(clean) < opt.Samples && attempt < maxAttemptsPerSample*opt.Samples; attempt++ {
		if err := ctx.Err(); err != nil {
			return Result{}, err
		}
		elapsed, offCPU := timeSample(iterations)
		mhz := MHzFrom(iterations, elapsed)
		if offCPU > time.Duration(float64(elapsed)*MaxOffCPUFraction) {
			res.Disturbed = append(res.Disturbed, mhz)
			disturbedDurations = append(disturbedDurations, elapsed)
			continue
		}
		res.SampleDurations = append(res.SampleDurations, elapsed)
		clean = append(clean, mhz)
	}
	if len(clean) == 0 {
		// Every sample was disturbed: report them, marked, rather than
		// nothing; the clock then reads low.
		res.AllDisturbed = true
		clean, res.Disturbed = res.Disturbed, nil
		res.SampleDurations = disturbedDurations
	}
	res.Summary = stats.Summarize(clean)
	if res.Summary.N == 0 {
		return Result{}, errors.New("no valid sample")
	}
	res.MHz = res.Summary.Median
	return res, nil
}

// timeSample runs the kernel once and returns its wall time and how much of
// it the thread spent off the CPU (other tasks, interrupts accounted to
// them); offCPU is 0 when the thread's CPU time cannot be read.
func timeSample(iterations uint64) (elapsed, offCPU time.Duration) {
	cpu0, err0 := threadCPUTime()
	elapsed = timeKernel(iterations)
	cpu1, err1 := threadCPUTime()
	if err0 != nil || err1 != nil {
		return elapsed, 0
	}
	if off := elapsed - (cpu1 - cpu0); off > 0 {
		offCPU = off
	}
	return elapsed, offCPU
}

// threadCPUTime returns the CPU time the calling thread has used.
func threadCPUTime() (time.Duration, error) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, err
	}
	return time.Duration(ts.Nano()), nil
}

// timeKernel runs the kernel once and returns the wall time it took.
func timeKernel(iterations uint64) time.Duration {
	start := time.Now()
	v := Loop(iterations)
	elapsed := time.Since(start)
	runtime.KeepAlive(v)
	return elapsed
}

// calibrate spins the kernel for at least warmup, doubling its length until
// one run takes a measurable time, and returns the iteration count that
// takes about target. The fastest run sets the rate: a run that the
// scheduler interrupted only looks slower, never faster.
func calibrate(warmup, target time.Duration) uint64 {
	const minRun = time.Millisecond
	n := uint64(16)
	start := time.Now()
	best := 0.0 // iterations per nanosecond
	for {
		d := timeKernel(n)
		if d < minRun {
			n *= 2
			continue
		}
		if rate := float64(n) / float64(d.Nanoseconds()); rate > best {
			best = rate
		}
		if time.Since(start) >= warmup {
			break
		}
		// Keep each warm-up run between one and a few milliseconds.
		if d < 2*minRun {
			n = n * 3 / 2
		}
	}
	iterations := uint64(best * float64(target.Nanoseconds()))
	if iterations == 0 {
		iterations = 1
	}
	return iterations
}

// String summarises a result for logs: "1800.2 MHz on cpu4 (asm-arm64)".
func (r Result) String() string {
	where := "unpinned"
	if r.CPU >= 0 {
		where = fmt.Sprintf("on cpu%d", r.CPU)
	}
	return fmt.Sprintf("%.1f MHz %s (%s)", r.MHz, where, r.Method)
}
