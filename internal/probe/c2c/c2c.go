// Package c2c measures core-to-core latency: two threads pinned to two CPUs
// bounce one cache line between them (an atomic ping-pong: one writes an
// odd value, the other waits for it and writes the next even value, and so
// on), and the time of one round trip (two hand-overs of the line) is the
// figure, in nanoseconds.
package c2c

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"boardbench/internal/stats"
)

// Defaults for Config fields left zero.
const (
	DefaultSamples    = 7
	DefaultSampleTime = 2 * time.Millisecond
	// DefaultWarmup is the number of round trips before the samples.
	DefaultWarmup = 2000
)

// Config says how to measure one pair.
type Config struct {
	// Samples per pair and the duration of one sample.
	Samples    int
	SampleTime time.Duration
	// Warmup round trips before sizing the samples.
	Warmup int
}

func (c *Config) defaults() {
	if c.Samples <= 0 {
		c.Samples = DefaultSamples
	}
	if c.SampleTime <= 0 {
		c.SampleTime = DefaultSampleTime
	}
	if c.Warmup <= 0 {
		c.Warmup = DefaultWarmup
	}
}

// Pinner binds the calling goroutine to a CPU; host.PinThread fits.
type Pinner func(cpu int) (unpin func(), err error)

// Pair is the round-trip latency between two CPUs.
type Pair struct {
	A int `json:"a"`
	B int `json:"b"`
	// NS is the median round trip in nanoseconds; nil when the pair could
	// not be measured (see Error).
	NS *float64 `json:"ns"`
	// Summary holds the samples (ns per round trip) and their spread.
	Summary stats.Summary `json:"summary"`
	// RoundTrips is the number of round trips in one sample.
	RoundTrips int    `json:"round_trips_per_sample,omitempty"`
	Error      string `json:"error,omitempty"`
}

// line is a cache line holding the ping-pong counter alone (128 bytes
// covers lines of 64 and 128 bytes and adjacent-line prefetchers).
type line struct {
	_ [128]byte
	v atomic.Uint64
	_ [128 - 8]byte
}

// stop tells the responder to return.
const stop = ^uint64(0)

// MeasurePair measures the round trip between CPUs a and b: a goroutine
// pinned to b answers; the calling goroutine, pinned to a, sends, times and
// collects the samples. The garbage collector is held off meanwhile.
func MeasurePair(a, b int, pin Pinner, cfg Config) Pair {
	cfg.defaults()
	res := Pair{A: a, B: b}
	if a == b {
		res.Error = "a CPU with itself"
		return res
	}
	restoreProcs := ensureProcs(3)
	defer restoreProcs()
	runtime.GC()
	oldGC := debug.SetGCPercent(-1)
	defer debug.SetGCPercent(oldGC)

	var l line
	var wg sync.WaitGroup
	pinned := make(chan error, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		unpin, err := pin(b)
		pinned <- err
		if err != nil {
			return
		}
		defer unpin()
		respond(&l.v)
	}()
	if err := <-pinned; err != nil {
		res.Error = err.Error()
		return res
	}
	unpin, err := pin(a)
	if err != nil {
		l.v.Store(stop)
		wg.Wait()
		res.Error = err.Error()
		return res
	}
	var next uint64 = 1
	ping := func(n int) {
		for range n {
			l.v.Store(next)
			for l.v.Load() != next+1 {
			}
			next += 2
		}
	}
	t := time.Now()
	ping(cfg.Warmup)
	per := time.Since(t) / time.Duration(cfg.Warmup)
	n := int(cfg.SampleTime / max(per, 1))
	n = max(n, 100)
	xs := make([]float64, 0, cfg.Samples)
	for range cfg.Samples {
		t := time.Now()
		ping(n)
		xs = append(xs, float64(time.Since(t).Nanoseconds())/float64(n))
	}
	l.v.Store(stop)
	unpin()
	wg.Wait()
	res.Summary = stats.Summarize(xs)
	res.RoundTrips = n
	if res.Summary.N > 0 {
		m := res.Summary.Median
		res.NS = &m
	}
	return res
}

// respond waits for each odd value and answers with the next even one,
// until it reads stop.
func respond(v *atomic.Uint64) {
	for {
		x := v.Load()
		if x == stop {
			return
		}
		if x&1 == 1 {
			v.Store(x + 1)
		}
	}
}

// ensureProcs raises GOMAXPROCS to at least n, so that both spinning
// threads and the runtime can run; the returned function restores it.
func ensureProcs(n int) (restore func()) {
	old := runtime.GOMAXPROCS(0)
	if old >= n {
		return func() {}
	}
	runtime.GOMAXPROCS(n)
	return func() { runtime.GOMAXPROCS(old) }
}

// MaxFullMatrix is the largest number of CPUs for which every pair is
// measured; above it, Pairs picks a representative sample.
const MaxFullMatrix = 16

// Pairs returns the pairs to measure among cpus (ascending). Up to
// MaxFullMatrix CPUs, every pair; above, the pairs among the first CPUs of
// the clusters, each CPU with its neighbour, and the first CPU with every
// other. clusters lists each cluster's CPUs (may be nil).
func Pairs(cpus []int, clusters [][]int) [][2]int {
	cpus = append([]int(nil), cpus...)
	sort.Ints(cpus)
	seen := map[[2]int]bool{}
	var out [][2]int
	add := func(a, b int) {
		if a == b {
			return
		}
		if a > b {
			a, b = b, a
		}
		k := [2]int{a, b}
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	if len(cpus) <= MaxFullMatrix {
		for i := range cpus {
			for j := i + 1; j < len(cpus); j++ {
				add(cpus[i], cpus[j])
			}
		}
		return out
	}
	online := map[int]bool{}
	for _, c := range cpus {
		online[c] = true
	}
	var firsts []int
	for _, cl := range clusters {
		for _, c := range cl {
			if online[c] {
				firsts = append(firsts, c)
				break
			}
		}
	}
	for i := range firsts {
		for j := i + 1; j < len(firsts); j++ {
			add(firsts[i], firsts[j])
		}
	}
	for i := 0; i+1 < len(cpus); i++ {
		add(cpus[i], cpus[i+1])
	}
	for _, c := range cpus[1:] {
		add(cpus[0], c)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i][0] != out[j][0] {
			return out[i][0] < out[j][0]
		}
		return out[i][1] < out[j][1]
	})
	return out
}

// ErrTooFewCPUs is returned when fewer than two CPUs are available.
const ErrTooFewCPUs = sentinel("core-to-core latency needs at least two CPUs")

// sentinel is an error value of this package that callers match with
// errors.Is; being a string constant, it costs nothing at start-up.
type sentinel string

func (e sentinel) Error() string { return string(e) }

// Measure measures the given pairs one after the other; progress (when not
// nil) is called after each.
func Measure(pairs [][2]int, pin Pinner, cfg Config, progress func(done, total int)) ([]Pair, error) {
	if len(pairs) == 0 {
		return nil, ErrTooFewCPUs
	}
	out := make([]Pair, 0, len(pairs))
	for i, p := range pairs {
		out = append(out, MeasurePair(p[0], p[1], pin, cfg))
		if progress != nil {
			progress(i+1, len(pairs))
		}
	}
	return out, nil
}

// Matrix arranges pair results as a symmetric matrix over cpus: cell [i][j]
// is the latency between cpus[i] and cpus[j], nil when not measured.
func Matrix(cpus []int, pairs []Pair) [][]*float64 {
	idx := map[int]int{}
	for i, c := range cpus {
		idx[c] = i
	}
	m := make([][]*float64, len(cpus))
	for i := range m {
		m[i] = make([]*float64, len(cpus))
	}
	for _, p := range pairs {
		i, ok1 := idx[p.A]
		j, ok2 := idx[p.B]
		if !ok1 || !ok2 || p.NS == nil {
			continue
		}
		m[i][j], m[j][i] = p.NS, p.NS
	}
	return m
}

// String describes a pair for progress lines.
func (p Pair) String() string { return fmt.Sprintf("cpu%d-cpu%d", p.A, p.B) }
