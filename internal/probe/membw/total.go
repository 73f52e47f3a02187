package membw

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// MinSliceBytes is the smallest per-CPU buffer slice for all-CPU figures,
// so that private caches never hold a slice.
const MinSliceBytes = 4 * MiB

// SliceSize returns the per-CPU slice for ncpu CPUs working at once on a
// total of totalBytes per buffer: totalBytes/ncpu, at least MinSliceBytes
// while ncpu slices fit in budgetBytes/2, rounded down to 64 KiB.
func SliceSize(totalBytes, budgetBytes int64, ncpu int) int64 {
	if ncpu < 1 {
		ncpu = 1
	}
	s := totalBytes / int64(ncpu)
	if s < MinSliceBytes {
		s = MinSliceBytes
		if budgetBytes > 0 && s*int64(ncpu) > budgetBytes/2 {
			s = budgetBytes / 2 / int64(ncpu)
		}
	}
	s &^= 64<<10 - 1
	return max(s, 64<<10)
}

// MeasureAll measures every configured kernel with one goroutine pinned to
// each CPU in cpus, all working at once, each on its own slice of
// cfg.BufferBytes (per buffer). One sample lets every CPU run passes over
// its slice for cfg.SampleTime; the sample's figure is the sum of the CPUs'
// rates (bytes done / time until their last pass ended). One warm-up sample
// per kernel is discarded.
func MeasureAll(cpus []int, pin Pinner, cfg Config) ([]Figure, error) {
	if len(cpus) == 0 {
		return nil, ErrNoCPUs
	}
	n := len(cpus)
	restoreProcs := ensureProcs(n + 1)
	defer restoreProcs()

	slice := cfg.BufferBytes
	src, err := mapBuffer(slice * int64(n))
	if err != nil {
		return nil, err
	}
	defer src.free()
	dst, err := mapBuffer(slice * int64(n))
	if err != nil {
		return nil, err
	}
	defer dst.free()
	pairs := make([]pair, n)
	for i := range pairs {
		lo, hi := int64(i)*slice, int64(i+1)*slice
		pairs[i] = pair{src: src.mem[lo:hi], dst: dst.mem[lo:hi]}
	}
	// Every CPU touches its own slices first (first-touch memory placement).
	if err := onEach(cpus, pin, nil, func(i int) { pairs[i].touch() }); err != nil {
		return nil, err
	}

	restore := holdGC()
	defer restore()
	return eachKernel(cfg, func(k Kernel) ([]float64, int, error) {
		var samples []float64
		perSample := 0
		for s := 0; s <= cfg.samples(); s++ {
			rate, passes, err := allAtOnce(cpus, pin, pairs, k, cfg.SampleTime)
			if err != nil {
				return nil, 0, err
			}
			if s == 0 {
				continue // warm-up
			}
			if s == 1 {
				perSample = passes
			}
			samples = append(samples, rate)
		}
		return samples, perSample, nil
	})
}

// ensureProcs raises GOMAXPROCS to at least n for pinned goroutines that
// must all run at once; the returned function restores it.
func ensureProcs(n int) (restore func()) {
	old := runtime.GOMAXPROCS(0)
	if old >= n {
		return func() {}
	}
	runtime.GOMAXPROCS(n)
	return func() { runtime.GOMAXPROCS(old) }
}

// onEach runs f(i) on a goroutine pinned to cpus[i], for every i at once,
// and waits for all. When pinning fails, f is not called for that CPU and
// arrived (when not nil) is counted up anyway, so that a barrier in the
// other calls of f never waits for it.
func onEach(cpus []int, pin Pinner, arrived *atomic.Int32, f func(i int)) error {
	var wg sync.WaitGroup
	errs := make([]error, len(cpus))
	for i, cpu := range cpus {
		wg.Add(1)
		go func() {
			defer wg.Done()
			unpin, err := pin(cpu)
			if err != nil {
				errs[i] = err
				if arrived != nil {
					arrived.Add(1)
				}
				return
			}
			defer unpin()
			f(i)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// allAtOnce runs kernel k on every CPU at once for about d and returns the
// aggregate MB/s and the passes the first CPU did.
func allAtOnce(cpus []int, pin Pinner, pairs []pair, k Kernel, d time.Duration) (mbs float64, passes int, err error) {
	n := len(cpus)
	rates := make([]float64, n)
	counts := make([]int, n)
	sinks := make([]uint64, n)
	var ready atomic.Int32
	err = onEach(cpus, pin, &ready, func(i int) {
		run, bytesPerPass := runner(k, pairs[i], &sinks[i])
		// Start together: the last to arrive releases everybody.
		ready.Add(1)
		for ready.Load() < int32(n) {
			runtime.Gosched()
		}
		t0 := time.Now()
		deadline := t0.Add(d)
		var done int
		var el time.Duration
		for {
			run(1)
			done++
			now := time.Now()
			el = now.Sub(t0)
			if !now.Before(deadline) {
				break
			}
		}
		counts[i] = done
		rates[i] = float64(bytesPerPass) * float64(done) / el.Seconds() / 1e6
	})
	if err != nil {
		return 0, 0, fmt.Errorf("all-CPU %s: %w", k, err)
	}
	for _, r := range rates {
		mbs += r
	}
	runtime.KeepAlive(sinks)
	return mbs, counts[0], nil
}
