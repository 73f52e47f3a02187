// Package membw measures memory bandwidth from one pinned CPU, and from all
// CPUs at once, over buffers well beyond the last-level cache: the C
// library's memcpy and memset (through package libcmem), Go's copy, a
// read-only scan, a write-only store loop and, where the architecture has
// them, non-temporal stores. 1 MB = 10^6 bytes; a copy counts the bytes
// copied once (not read plus written).
package membw

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strconv"
	"time"
	"unsafe"

	"boardbench/internal/probe/libcmem"
	"boardbench/internal/stats"

	"golang.org/x/sys/unix"
)

// Kernel names one way of moving memory.
type Kernel string

// The kernels, in report order.
const (
	Memcpy  Kernel = "memcpy"   // the C library's memcpy
	Memset  Kernel = "memset"   // the C library's memset
	Read    Kernel = "read"     // sum of 64-bit words, unrolled
	Write   Kernel = "write"    // store loop of 64-bit words, unrolled
	CopyGo  Kernel = "copy_go"  // Go's built-in copy
	NTWrite Kernel = "nt_write" // non-temporal (streaming) stores
)

// AllKernels lists every kernel in report order.
var AllKernels = []Kernel{Memcpy, Memset, Read, Write, CopyGo, NTWrite}

// Label is the kernel's name in text reports.
func (k Kernel) Label() string {
	switch k {
	case Memcpy:
		return "memcpy (C library)"
	case Memset:
		return "memset (C library)"
	case Read:
		return "read (64-bit loads)"
	case Write:
		return "write (64-bit stores)"
	case CopyGo:
		return "copy (Go runtime)"
	case NTWrite:
		if !hasNT {
			return "non-temporal write"
		}
		return "non-temporal write (" + ntInstruction + ")"
	}
	return string(k)
}

// Unavailable returns why k cannot run in this binary on this architecture,
// or "" when it can.
func (k Kernel) Unavailable() string {
	switch k {
	case Memcpy, Memset:
		if !libcmem.Available() {
			return "built without the C library"
		}
	case NTWrite:
		if !hasNT {
			return "no non-temporal store kernel for " + runtime.GOARCH
		}
	case Read, Write, CopyGo:
	default:
		return "unknown kernel"
	}
	return ""
}

// MiB is 2^20 bytes.
const MiB = 1 << 20

// MinBufferBytes is the smallest buffer used by default, as in the
// bandwidth results users compare with (32 MiB).
const MinBufferBytes = 32 * MiB

// MaxBufferBytes caps the buffer on machines with huge last-level caches
// (server parts), where four times the cache would take long to sweep.
const MaxBufferBytes = 512 * MiB

// BufferSize chooses the size of each buffer: the larger of 32 MiB and four
// times llcBytes (0 when unknown), at most budgetBytes/2 (a copy needs two
// buffers), at most limitBytes when > 0 and at most MaxBufferBytes; rounded
// down to a multiple of 64 KiB. Reasons says what lowered it.
func BufferSize(llcBytes, budgetBytes, limitBytes int64) (size int64, reasons []string) {
	size = max(int64(MinBufferBytes), 4*llcBytes)
	if size > MaxBufferBytes {
		size = MaxBufferBytes
		reasons = append(reasons, fmt.Sprintf("buffer capped at %d MiB", MaxBufferBytes/MiB))
	}
	if budgetBytes > 0 && size > budgetBytes/2 {
		size = budgetBytes / 2
		reasons = append(reasons, "buffer limited by available memory")
	}
	if limitBytes > 0 && size > limitBytes {
		size = limitBytes
		reasons = append(reasons, "buffer limited by --max-size")
	}
	size &^= 64<<10 - 1
	if size < 64<<10 {
		size = 64 << 10
	}
	if llcBytes > 0 && size < 4*llcBytes {
		reasons = append(reasons, fmt.Sprintf("buffer (%s) is less than 4x the last-level cache (%s): figures may include cache hits", sizeText(size), sizeText(llcBytes)))
	}
	return size, reasons
}

// sizeText writes n bytes in MiB, or KiB below 1 MiB.
func sizeText(n int64) string {
	if n >= MiB {
		return strconv.FormatFloat(float64(n)/MiB, 'f', -1, 64) + " MiB"
	}
	return strconv.FormatFloat(float64(n)/1024, 'f', -1, 64) + " KiB"
}

// Config says how to measure.
type Config struct {
	// BufferBytes is the size of each buffer (source and destination).
	BufferBytes int64
	// Samples is the number of measured samples per kernel (after one
	// warm-up); at least 1.
	Samples int
	// SampleTime is the least duration of one sample; passes over the
	// buffer are repeated until it is reached.
	SampleTime time.Duration
	// Kernels to run; nil means AllKernels.
	Kernels []Kernel
	// Progress, when set, is called after each kernel.
	Progress func(done, total int)
	// Stop, when not nil, ends the measurement early once closed (checked
	// between kernels); the functions then return ErrStopped.
	Stop <-chan struct{}
}

// ErrStopped is returned when Config.Stop was closed.
const ErrStopped = sentinel("measurement stopped")

// sentinel is an error value of this package that callers match with
// errors.Is; being a string constant, it costs nothing at start-up.
type sentinel string

func (e sentinel) Error() string { return string(e) }

func (c Config) stopped() bool {
	select {
	case <-c.Stop:
		return true
	default:
		return false
	}
}

func (c Config) progress(done int) {
	if c.Progress != nil {
		c.Progress(done, len(c.kernels()))
	}
}

func (c Config) kernels() []Kernel {
	if c.Kernels == nil {
		return AllKernels
	}
	return c.Kernels
}

func (c Config) samples() int { return max(c.Samples, 1) }

// Figure is the bandwidth of one kernel.
type Figure struct {
	Kernel Kernel `json:"kernel"`
	// MBs is the median of the samples in MB/s (10^6 bytes per second); nil
	// when the kernel could not run (see Note).
	MBs *float64 `json:"mb_s"`
	// Summary holds the samples (MB/s) and their spread.
	Summary stats.Summary `json:"summary"`
	// PassesPerSample is how many passes over the buffer one sample took
	// (per CPU for all-CPU figures, in the first sample).
	PassesPerSample int `json:"passes_per_sample,omitempty"`
	// Note says why MBs is nil.
	Note string `json:"note,omitempty"`
}

// Pinner binds the calling goroutine to a CPU and returns the undo function;
// host.PinThread fits.
type Pinner func(cpu int) (unpin func(), err error)

// holdGC collects garbage once and then keeps the collector out of the
// measured window; the returned function restores the previous setting.
func holdGC() (restore func()) {
	runtime.GC()
	old := debug.SetGCPercent(-1)
	return func() { debug.SetGCPercent(old) }
}

// buffer is an anonymous private mapping, outside the Go heap.
type buffer struct{ mem []byte }

func mapBuffer(n int64) (buffer, error) {
	if n <= 0 || int64(int(n)) != n {
		return buffer{}, fmt.Errorf("buffer size %d: invalid", n)
	}
	mem, err := unix.Mmap(-1, 0, int(n), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		return buffer{}, fmt.Errorf("cannot map %d bytes: %v", n, err)
	}
	return buffer{mem: mem}, nil
}

func (b buffer) free() {
	if b.mem != nil {
		_ = unix.Munmap(b.mem)
	}
}

// words views b as 64-bit words (mappings are page aligned).
func words(b []byte) []uint64 {
	if len(b) < 8 {
		return nil
	}
	return unsafe.Slice((*uint64)(unsafe.Pointer(&b[0])), len(b)/8)
}

// pair is one source and one destination of equal size.
type pair struct{ src, dst []byte }

// touch writes every page of both buffers, so that the measurement never
// sees page faults or the shared zero page.
func (p pair) touch() {
	fillWords(words(p.src), 0x0123456789abcdef)
	fillWords(words(p.dst), 0xfedcba9876543210)
}

// runner returns a function doing n passes of kernel k over p, and the
// number of bytes one pass counts.
func runner(k Kernel, p pair, sink *uint64) (run func(n int), bytesPerPass int64) {
	size := int64(len(p.dst))
	switch k {
	case Memcpy:
		return func(n int) { libcmem.Memcpy(p.dst, p.src, n) }, size
	case Memset:
		return func(n int) { libcmem.Memset(p.dst, 0x5a, n) }, size
	case Read:
		w := words(p.src)
		return func(n int) {
			for range n {
				*sink += readSum(w)
			}
		}, int64(len(w)) * 8
	case Write:
		w := words(p.dst)
		return func(n int) {
			for i := range n {
				fillWords(w, uint64(i)|1)
			}
		}, int64(len(w)) * 8
	case CopyGo:
		return func(n int) {
			for range n {
				copy(p.dst, p.src)
			}
		}, size
	case NTWrite:
		n64 := uintptr(len(p.dst)) &^ 63
		return func(n int) {
			for i := range n {
				ntFill(&p.dst[0], n64, uint64(i)|1)
			}
		}, int64(n64)
	}
	return nil, 0
}

// MeasureCPU measures every configured kernel on one CPU: it pins the
// calling goroutine's thread there with pin, maps and touches two buffers of
// cfg.BufferBytes, and for each kernel runs one warm-up and cfg.Samples
// samples with the garbage collector held off. The buffers are unmapped
// before it returns.
func MeasureCPU(cpu int, pin Pinner, cfg Config) ([]Figure, error) {
	unpin, err := pin(cpu)
	if err != nil {
		return nil, err
	}
	defer unpin()
	src, err := mapBuffer(cfg.BufferBytes)
	if err != nil {
		return nil, err
	}
	defer src.free()
	dst, err := mapBuffer(cfg.BufferBytes)
	if err != nil {
		return nil, err
	}
	defer dst.free()
	p := pair{src: src.mem, dst: dst.mem}
	p.touch()

	restore := holdGC()
	defer restore()
	var sink uint64
	defer runtime.KeepAlive(&sink)
	return eachKernel(cfg, func(k Kernel) ([]float64, int, error) {
		run, bytesPerPass := runner(k, p, &sink)
		// Warm-up: one timed pass sets the passes per sample.
		t0 := time.Now()
		run(1)
		per := time.Since(t0)
		passes := passesFor(cfg.SampleTime, per)
		samples := make([]float64, 0, cfg.samples())
		for range cfg.samples() {
			t := time.Now()
			run(passes)
			el := time.Since(t).Seconds()
			samples = append(samples, float64(bytesPerPass)*float64(passes)/el/1e6)
		}
		return samples, passes, nil
	})
}

// eachKernel measures every configured kernel in turn with measure, which
// returns the samples (MB/s) and the passes per sample, and summarizes
// them into figures; a kernel that cannot run on this machine gets a note
// instead. It stops with ErrStopped (and the figures so far) when cfg.Stop
// is closed, and on the first error of measure.
func eachKernel(cfg Config, measure func(k Kernel) (samples []float64, passes int, err error)) ([]Figure, error) {
	var figs []Figure
	for i, k := range cfg.kernels() {
		if cfg.stopped() {
			return figs, ErrStopped
		}
		fig := Figure{Kernel: k}
		if why := k.Unavailable(); why != "" {
			fig.Note = why
		} else {
			samples, passes, err := measure(k)
			if err != nil {
				return nil, err
			}
			fig.Summary = stats.Summarize(samples)
			fig.PassesPerSample = passes
			if fig.Summary.N > 0 {
				m := fig.Summary.Median
				fig.MBs = &m
			}
		}
		figs = append(figs, fig)
		cfg.progress(i + 1)
	}
	return figs, nil
}

// passesFor returns how many passes of duration per fill at least want.
func passesFor(want, per time.Duration) int {
	if per <= 0 {
		return 1
	}
	n := int((want + per - 1) / per)
	return max(n, 1)
}

// ErrNoCPUs is returned when MeasureAll is given no CPU.
const ErrNoCPUs = sentinel("no CPU to measure")
