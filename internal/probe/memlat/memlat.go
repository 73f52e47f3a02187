// Package memlat measures memory latency from one pinned CPU by pointer
// chasing: each block size (1 KiB up to tens or hundreds of MiB) holds a
// random cyclic chain through all its cache-line-sized slots, and the time
// per dependent load is the latency. Two independent chains chased at once
// show how much the memory system overlaps misses. Blocks are measured on
// normal pages and, when transparent huge pages are available, on huge
// pages. Package functions also find cache levels in the curve and parse
// the latency tables of other tools' outputs.
package memlat

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"time"
	"unsafe"

	"boardbench/internal/stats"

	"golang.org/x/sys/unix"
)

// KiB and MiB are 2^10 and 2^20 bytes.
const (
	KiB = 1 << 10
	MiB = 1 << 20
)

// Defaults for Config fields left zero.
const (
	DefaultMinBytes   = 1 * KiB
	DefaultMaxBytes   = 64 * MiB
	DefaultLineBytes  = 64
	DefaultSampleTime = 10 * time.Millisecond
	DefaultSamples    = 3
	// DefaultHugePageBytes is the transparent huge page size of 4 KiB-page
	// kernels.
	DefaultHugePageBytes = 2 * MiB
)

// Config says how to measure. Zero fields take the defaults above.
type Config struct {
	// MinBytes and MaxBytes bound the block sizes, which are the powers of
	// two in between.
	MinBytes, MaxBytes int64
	// LineBytes is the slot size, the cache line size (at least 16).
	LineBytes int
	// SampleTime is the duration of one sample; Samples the number of
	// samples per block size and variant (after one warm-up).
	SampleTime time.Duration
	Samples    int
	// HugePages asks for a second pass with MADV_HUGEPAGE.
	HugePages bool
	// HugePageBytes is the huge page size (alignment of the huge-page
	// buffer).
	HugePageBytes int64
	// AnonHugeBytes, when set, returns the system's AnonHugePages (bytes)
	// so that the huge-page pass can check it got huge pages.
	AnonHugeBytes func() (int64, bool)
	// Progress, when set, is called after each block size and variant.
	Progress func(done, total int)
	// Seed makes the chains reproducible.
	Seed uint64
	// Stop, when not nil, ends the measurement early once closed (checked
	// between blocks); Measure then returns ErrStopped.
	Stop <-chan struct{}
}

// ErrStopped is returned when Config.Stop was closed.
const ErrStopped = sentinel("measurement stopped")

// sentinel is an error value of this package that callers match with
// errors.Is; being a string constant, it costs nothing at start-up.
type sentinel string

func (e sentinel) Error() string { return string(e) }

func (c *Config) stopped() bool {
	select {
	case <-c.Stop:
		return true
	default:
		return false
	}
}

func (c *Config) defaults() {
	if c.MinBytes <= 0 {
		c.MinBytes = DefaultMinBytes
	}
	if c.MaxBytes <= 0 {
		c.MaxBytes = DefaultMaxBytes
	}
	if c.LineBytes < 2*ptrSize {
		c.LineBytes = DefaultLineBytes
	}
	if c.SampleTime <= 0 {
		c.SampleTime = DefaultSampleTime
	}
	if c.Samples <= 0 {
		c.Samples = DefaultSamples
	}
	if c.HugePageBytes <= 0 {
		c.HugePageBytes = DefaultHugePageBytes
	}
}

// Sizes returns the block sizes of cfg: the powers of two from MinBytes to
// MaxBytes, none smaller than two slots.
func Sizes(minBytes, maxBytes int64, line int) []int64 {
	var out []int64
	for s := int64(1); s <= maxBytes && s > 0; s <<= 1 {
		if s >= minBytes && s >= 2*int64(line) {
			out = append(out, s)
		}
	}
	return out
}

// Point is the latency at one block size, in nanoseconds per access. The
// dual figures are the time per step when two independent chains advance
// together (one access in each chain per step), as in the "dual random
// read" columns users know. Huge-page figures are nil when not measured.
type Point struct {
	SizeBytes      int64    `json:"size_bytes"`
	NS             *float64 `json:"ns"`
	NSDual         *float64 `json:"ns_dual"`
	NSHugePage     *float64 `json:"ns_hugepage"`
	NSDualHugePage *float64 `json:"ns_dual_hugepage"`
	// Samples holds each figure's samples and spread, keyed like the
	// figures ("ns", "ns_dual", "ns_hugepage", "ns_dual_hugepage").
	Samples map[string]stats.Summary `json:"samples"`
	// Accesses is the number of accesses (steps) in one sample of the
	// single chain on normal pages.
	Accesses int `json:"accesses_per_sample"`
}

// HugePageCheck reports what the huge-page pass got.
type HugePageCheck struct {
	// BufferBytes is the size of the buffer advised with MADV_HUGEPAGE.
	BufferBytes int64 `json:"buffer_bytes"`
	// AnonHugeDeltaBytes is the growth of the system's AnonHugePages while
	// the buffer was filled: about the part of it on huge pages (other
	// processes can disturb it). Nil when not read.
	AnonHugeDeltaBytes *int64 `json:"anon_huge_delta_bytes"`
}

// Result is a latency curve.
type Result struct {
	LineBytes int     `json:"line_bytes"`
	Points    []Point `json:"points"`
	// HugePages is nil when no huge-page pass ran.
	HugePages *HugePageCheck `json:"huge_pages"`
	// HugePagesNote says why there is no huge-page pass, or what went wrong.
	HugePagesNote string `json:"huge_pages_note,omitempty"`
}

// Pinner binds the calling goroutine to a CPU; host.PinThread fits.
type Pinner func(cpu int) (unpin func(), err error)

// ErrBadSize is returned when no block size fits the configuration.
const ErrBadSize = sentinel("no block size between the minimum and the maximum")

// Measure pins the calling goroutine's thread to cpu and measures the
// latency curve: for every block size, a warm-up and cfg.Samples samples of
// one chain and of two chains, on a buffer advised MADV_NOHUGEPAGE and then
// (with cfg.HugePages) on one advised MADV_HUGEPAGE. Buffers are unmapped
// before it returns; at most one buffer of cfg.MaxBytes (plus a huge page
// for alignment) and a scratch array of MaxBytes/LineBytes 32-bit indices
// are in use at a time.
func Measure(cpu int, pin Pinner, cfg Config) (Result, error) {
	cfg.defaults()
	sizes := Sizes(cfg.MinBytes, cfg.MaxBytes, cfg.LineBytes)
	if len(sizes) == 0 {
		return Result{}, ErrBadSize
	}
	unpin, err := pin(cpu)
	if err != nil {
		return Result{}, err
	}
	defer unpin()

	res := Result{LineBytes: cfg.LineBytes, Points: make([]Point, len(sizes))}
	for i, s := range sizes {
		res.Points[i] = Point{SizeBytes: s, Samples: map[string]stats.Summary{}}
	}
	maxSize := sizes[len(sizes)-1]
	scratch := make([]uint32, maxSize/int64(cfg.LineBytes))
	total := len(sizes)
	if cfg.HugePages {
		total *= 2
	}
	m := &meter{cfg: cfg, scratch: scratch, total: total}

	restore := holdGC()
	defer restore()
	if err := m.pass(&res, false); err != nil {
		return res, err
	}
	if cfg.HugePages {
		if err := m.pass(&res, true); errors.Is(err, ErrStopped) {
			return res, err
		} else if err != nil {
			// No huge pages is a finding, not a failure of the whole run.
			res.HugePagesNote = err.Error()
			res.HugePages = nil
			for i := range res.Points {
				res.Points[i].NSHugePage, res.Points[i].NSDualHugePage = nil, nil
			}
		}
	}
	return res, nil
}

// holdGC collects garbage once and then keeps the collector out of the
// measured window; the returned function restores the previous setting.
func holdGC() (restore func()) {
	runtime.GC()
	old := debug.SetGCPercent(-1)
	return func() { debug.SetGCPercent(old) }
}

// meter runs the passes of one Measure.
type meter struct {
	cfg     Config
	scratch []uint32
	total   int
	done    int
	sink    uintptr
}

// pass measures every block size on one buffer.
func (m *meter) pass(res *Result, huge bool) error {
	maxSize := res.Points[len(res.Points)-1].SizeBytes
	align := int64(0)
	if huge {
		align = m.cfg.HugePageBytes
	}
	mem, err := unix.Mmap(-1, 0, int(maxSize+align), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return fmt.Errorf("cannot map %d bytes: %v", maxSize+align, err)
	}
	defer unix.Munmap(mem)
	off := int64(0)
	if align > 0 {
		addr := int64(uintptr(unsafe.Pointer(&mem[0])))
		off = (align - addr%align) % align
	}
	buf := mem[off : off+maxSize]
	advice := unix.MADV_NOHUGEPAGE
	if huge {
		advice = unix.MADV_HUGEPAGE
	}
	var before int64
	var haveBefore bool
	if huge && m.cfg.AnonHugeBytes != nil {
		before, haveBefore = m.cfg.AnonHugeBytes()
	}
	if err := unix.Madvise(buf, advice); err != nil {
		if huge {
			return fmt.Errorf("madvise(MADV_HUGEPAGE) refused: %v", err)
		}
		// Without NOHUGEPAGE the kernel has no THP at all: normal pages.
	}
	// Touch every page now, so that no sample takes page faults.
	touch(buf)
	if huge {
		chk := &HugePageCheck{BufferBytes: maxSize}
		if haveBefore {
			if after, ok := m.cfg.AnonHugeBytes(); ok {
				d := min(max(after-before, 0), maxSize)
				chk.AnonHugeDeltaBytes = &d
			}
		}
		res.HugePages = chk
	}

	rng := rand.New(rand.NewPCG(m.cfg.Seed, 0x9e3779b97f4a7c15))
	for i := range res.Points {
		if m.cfg.stopped() {
			return ErrStopped
		}
		pt := &res.Points[i]
		single, dual, n := m.block(buf[:pt.SizeBytes], rng)
		ks, kd := "ns", "ns_dual"
		if huge {
			ks, kd = "ns_hugepage", "ns_dual_hugepage"
		}
		pt.Samples[ks], pt.Samples[kd] = single, dual
		a, b := median(single), median(dual)
		if huge {
			pt.NSHugePage, pt.NSDualHugePage = a, b
		} else {
			pt.NS, pt.NSDual, pt.Accesses = a, b, n
		}
		m.done++
		if m.cfg.Progress != nil {
			m.cfg.Progress(m.done, m.total)
		}
	}
	return nil
}

func median(s stats.Summary) *float64 {
	if s.N == 0 {
		return nil
	}
	v := s.Median
	return &v
}

// touch writes every word of buf.
func touch(buf []byte) {
	w := unsafe.Slice((*uint64)(unsafe.Pointer(&buf[0])), len(buf)/8)
	for i := range w {
		w[i] = uint64(i)
	}
}

// block measures one block: builds two chains through all its slots (one
// in each slot's first word, one in its second), sizes the samples, warms
// up and takes the samples. It returns the single- and dual-chain summaries
// (ns per step) and the steps per sample.
func (m *meter) block(buf []byte, rng *rand.Rand) (single, dual stats.Summary, steps int) {
	line := m.cfg.LineBytes
	next := m.scratch[:len(buf)/line]
	Cycle(next, rng)
	p := writeChain(buf, line, 0, next)
	Cycle(next, rng)
	q := writeChain(buf, line, ptrSize, next)

	// Calibrate: double the steps until a run takes at least 1 ms.
	n := 4096
	var el time.Duration
	for {
		t := time.Now()
		p = chase(p, n)
		el = time.Since(t)
		if el >= time.Millisecond || n >= 1<<30 {
			break
		}
		n *= 2
	}
	steps = int(float64(n) * float64(m.cfg.SampleTime) / float64(el))
	steps = max(steps, 1024)

	p = chase(p, steps) // warm-up
	p, q = chase2(p, q, steps/2)
	xs := make([]float64, 0, m.cfg.Samples)
	ys := make([]float64, 0, m.cfg.Samples)
	for range m.cfg.Samples {
		t := time.Now()
		p = chase(p, steps)
		xs = append(xs, float64(time.Since(t).Nanoseconds())/float64(steps))
		t = time.Now()
		p, q = chase2(p, q, steps)
		ys = append(ys, float64(time.Since(t).Nanoseconds())/float64(steps))
	}
	m.sink += uintptr(p) + uintptr(q)
	return stats.Summarize(xs), stats.Summarize(ys), steps
}
