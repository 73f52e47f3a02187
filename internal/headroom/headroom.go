// Package headroom measures the CPU capacity left while something else
// (network forwarding, interrupts) uses the CPUs: a fixed unit of integer
// work runs in a loop on each CPU, one thread pinned to it, and the units
// done per second are counted. Run on a quiet machine, that is the CPU's
// calibrated rate; run while traffic passes, the share of it reached is
// the capacity left for programs (`boardbench net --watch --headroom`,
// docs/net.md).
package headroom

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"boardbench/internal/host"
)

// unitIterations is the size of one unit of work: small enough that a
// stop is seen within well under a millisecond on a slow board.
const unitIterations = 4096

// unit does one unit of integer work (xorshift steps) and returns its
// result.
func unit(x uint64) uint64 {
	for range unitIterations {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
	}
	return x
}

// Rate is one CPU's work rate.
type Rate struct {
	CPU int
	// UnitsPerS are the units of work done per second (one unit is
	// unitIterations xorshift steps).
	UnitsPerS float64
	// Err says why the CPU could not be loaded (cannot pin); UnitsPerS is
	// then 0.
	Err error
}

// Load is a running load: one pinned thread per CPU.
type Load struct {
	cpus   []int
	counts []atomic.Uint64
	errs   []error
	stop   chan struct{}
	wg     sync.WaitGroup
	start  time.Time
	now    func() time.Time
	once   sync.Once
	rates  []Rate
	// sink keeps the compiler from removing the work.
	sink atomic.Uint64
}

// Start starts the load on cpus. now is the clock (nil: time.Now). The
// load runs until Stop or until ctx is done.
func Start(ctx context.Context, cpus []int, now func() time.Time) *Load {
	if now == nil {
		now = time.Now
	}
	l := &Load{cpus: cpus, counts: make([]atomic.Uint64, len(cpus)), errs: make([]error, len(cpus)), stop: make(chan struct{}), now: now}
	l.start = now()
	for i, c := range cpus {
		l.wg.Add(1)
		go func() {
			defer l.wg.Done()
			unpin, err := host.PinThread(c)
			if err != nil {
				l.errs[i] = err
				return
			}
			defer unpin()
			x := uint64(c) + 0x9e3779b97f4a7c15
			for {
				select {
				case <-l.stop:
					l.sink.Add(x)
					return
				case <-ctx.Done():
					l.sink.Add(x)
					return
				default:
				}
				x = unit(x)
				l.counts[i].Add(1)
			}
		}()
	}
	return l
}

// Stop ends the load and returns each CPU's rate over the time it ran.
// Calling it again returns the same rates.
func (l *Load) Stop() []Rate {
	l.once.Do(func() {
		close(l.stop)
		l.wg.Wait()
		secs := l.now().Sub(l.start).Seconds()
		for i, c := range l.cpus {
			r := Rate{CPU: c, Err: l.errs[i]}
			if r.Err == nil && secs > 0 {
				r.UnitsPerS = float64(l.counts[i].Load()) / secs
			}
			l.rates = append(l.rates, r)
		}
	})
	return l.rates
}

// Measure runs the load on cpus for d (or until ctx is done) and returns
// the rates: on a quiet machine, the calibration.
func Measure(ctx context.Context, cpus []int, d time.Duration) []Rate {
	l := Start(ctx, cpus, nil)
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
	case <-t.C:
	}
	return l.Stop()
}

// Share returns the share (0 to 1, capped at 1) of the calibrated rate a
// loaded rate reached; ok is false without a calibration of that CPU.
func Share(loaded, idle Rate) (share float64, ok bool) {
	if idle.Err != nil || loaded.Err != nil || idle.UnitsPerS <= 0 {
		return 0, false
	}
	return min(1, loaded.UnitsPerS/idle.UnitsPerS), true
}

// String writes a rate for messages.
func (r Rate) String() string {
	if r.Err != nil {
		return fmt.Sprintf("cpu%d: %v", r.CPU, r.Err)
	}
	return fmt.Sprintf("cpu%d: %.0f units/s", r.CPU, r.UnitsPerS)
}
