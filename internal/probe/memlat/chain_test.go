package memlat

import (
	"math/rand/v2"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

func TestCycleIsOneCycle(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 16, 1000, 1 << 16} {
		next := make([]uint32, n)
		Cycle(next, rng)
		seen := make([]bool, n)
		i := uint32(0)
		for step := 0; step < n; step++ {
			if seen[i] {
				t.Fatalf("n=%d: slot %d visited twice after %d steps", n, i, step)
			}
			seen[i] = true
			if int(next[i]) >= n {
				t.Fatalf("n=%d: next[%d] = %d out of range", n, i, next[i])
			}
			i = next[i]
		}
		if i != 0 {
			t.Fatalf("n=%d: chain did not return to slot 0 after %d steps", n, n)
		}
		if n > 1 {
			for k, v := range next {
				if int(v) == k {
					t.Fatalf("n=%d: fixed point at %d", n, k)
				}
			}
		}
	}
}

func TestCycleIsRandom(t *testing.T) {
	// Two seeds give different chains; the same seed the same chain.
	a, b, c := make([]uint32, 64), make([]uint32, 64), make([]uint32, 64)
	Cycle(a, rand.New(rand.NewPCG(1, 1)))
	Cycle(b, rand.New(rand.NewPCG(2, 1)))
	Cycle(c, rand.New(rand.NewPCG(1, 1)))
	same := func(x, y []uint32) bool {
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return true
	}
	if same(a, b) || !same(a, c) {
		t.Error("chains do not depend on the seed as they should")
	}
}

func TestWriteChainAndChase(t *testing.T) {
	const line, slots = 64, 257
	// Raw addresses are stored in the buffer, so it must never move: an
	// mmap'ed buffer, as in Measure (a Go slice could live on the stack).
	buf, err := unix.Mmap(-1, 0, line*slots, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANON)
	if err != nil {
		t.Fatal(err)
	}
	defer unix.Munmap(buf)
	rng := rand.New(rand.NewPCG(7, 7))
	next := make([]uint32, slots)
	Cycle(next, rng)
	p := writeChain(buf, line, 0, next)
	Cycle(next, rng)
	q := writeChain(buf, line, ptrSize, next)
	base := uintptr(unsafe.Pointer(&buf[0]))

	for _, tc := range []struct {
		start unsafe.Pointer
		off   uintptr
	}{{p, 0}, {q, uintptr(ptrSize)}} {
		seen := map[uintptr]bool{}
		x := tc.start
		for range slots {
			a := uintptr(x) - base
			if a%line != tc.off || a >= line*slots || seen[a] {
				t.Fatalf("chain at offset %d: bad or repeated link %d", tc.off, a)
			}
			seen[a] = true
			x = chase(x, 1)
		}
		if x != tc.start {
			t.Fatalf("chain at offset %d does not close after %d steps", tc.off, slots)
		}
	}
	// chase and chase2 agree with single steps, for counts around the
	// unrolling.
	for _, n := range []int{0, 1, 7, 8, 15, 16, 17, 100} {
		x, y := p, q
		for range n {
			x, y = chase(x, 1), chase(y, 1)
		}
		if got := chase(p, n); got != x {
			t.Errorf("chase(%d) ends elsewhere", n)
		}
		if gx, gy := chase2(p, q, n); gx != x || gy != y {
			t.Errorf("chase2(%d) ends elsewhere", n)
		}
	}
}

func TestSizes(t *testing.T) {
	got := Sizes(1*KiB, 64*MiB, 64)
	if len(got) != 17 || got[0] != 1024 || got[16] != 64*MiB {
		t.Errorf("Sizes(1K, 64M) = %v", got)
	}
	if got := Sizes(1, 256, 64); len(got) != 2 || got[0] != 128 {
		t.Errorf("blocks smaller than two slots kept: %v", got)
	}
	if got := Sizes(4*KiB, 2*KiB, 64); got != nil {
		t.Errorf("empty range gave %v", got)
	}
}

func TestMeasureSmall(t *testing.T) {
	noPin := func(int) (func(), error) { return func() {}, nil }
	var calls int
	cfg := Config{MaxBytes: 64 * KiB, SampleTime: 200 * time.Microsecond, Samples: 2, HugePages: true,
		Progress: func(done, total int) { calls++ }}
	res, err := Measure(0, noPin, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Points) != 7 || res.LineBytes != 64 {
		t.Fatalf("got %d points (line %d), want 7 blocks of 1..64 KiB", len(res.Points), res.LineBytes)
	}
	if calls != 7 && calls != 14 {
		t.Errorf("progress called %d times", calls)
	}
	for _, p := range res.Points {
		if p.NS == nil || !(*p.NS > 0) || p.NSDual == nil || !(*p.NSDual > 0) {
			t.Errorf("%d: missing single or dual figure", p.SizeBytes)
		}
		if s := p.Samples["ns"]; s.N != 2 {
			t.Errorf("%d: %d samples, want 2", p.SizeBytes, s.N)
		}
		if res.HugePages != nil && (p.NSHugePage == nil || p.NSDualHugePage == nil) {
			t.Errorf("%d: huge-page pass ran but figures missing", p.SizeBytes)
		}
	}
	if res.HugePages == nil && res.HugePagesNote == "" {
		t.Error("no huge-page pass and no reason")
	}
	if _, err := Measure(0, noPin, Config{MinBytes: 1 << 20, MaxBytes: 1 << 10}); err != ErrBadSize {
		t.Errorf("empty size range: %v", err)
	}
}

func TestStop(t *testing.T) {
	stop := make(chan struct{})
	close(stop)
	noPin := func(int) (func(), error) { return func() {}, nil }
	if _, err := Measure(0, noPin, Config{MaxBytes: 4 * KiB, Stop: stop}); err != ErrStopped {
		t.Errorf("Measure: %v, want ErrStopped", err)
	}
}
