package membw

import (
	"math"
	"strings"
	"testing"
	"time"
)

// noPin is a Pinner that leaves the thread where it is (tests run anywhere).
func noPin(int) (func(), error) { return func() {}, nil }

func TestReadSumChecksum(t *testing.T) {
	for _, n := range []int{0, 1, 7, 8, 9, 64, 1000, 4099} {
		s := make([]uint64, n)
		var want uint64
		for i := range s {
			s[i] = uint64(i)*0x9e3779b97f4a7c15 + 3
			want += s[i]
		}
		if got := readSum(s); got != want {
			t.Errorf("readSum(%d words) = %#x, want %#x", n, got, want)
		}
	}
}

func TestFillWords(t *testing.T) {
	for _, n := range []int{0, 3, 8, 17, 1024} {
		s := make([]uint64, n+1)
		fillWords(s[:n], 42)
		for i := 0; i < n; i++ {
			if s[i] != 42 {
				t.Fatalf("n=%d: word %d = %d, want 42", n, i, s[i])
			}
		}
		if s[n] != 0 {
			t.Fatalf("n=%d: wrote past the end", n)
		}
	}
}

func TestNTFill(t *testing.T) {
	if !hasNT {
		t.Skip("no non-temporal store kernel on this architecture")
	}
	b, err := mapBuffer(1 << 16)
	if err != nil {
		t.Fatal(err)
	}
	defer b.free()
	const n = 64 * 37
	ntFill(&b.mem[0], n, 0x1122334455667788)
	w := words(b.mem)
	for i := 0; i < n/8; i++ {
		if w[i] != 0x1122334455667788 {
			t.Fatalf("word %d = %#x", i, w[i])
		}
	}
	if w[n/8] != 0 {
		t.Fatal("ntFill wrote past n bytes")
	}
}

func TestBufferSize(t *testing.T) {
	const M = MiB
	tests := []struct {
		name               string
		llc, budget, limit int64
		want               int64
		reason             string
	}{
		{"small cache", 2 * M, 1 << 30, 0, 32 * M, ""},
		{"4x llc", 16 * M, 1 << 30, 0, 64 * M, ""},
		{"unknown llc", 0, 1 << 30, 0, 32 * M, ""},
		{"512 MB board", 2 * M, 87 * M, 0, 32 * M, ""},
		{"256 MB board", 2 * M, 50 * M, 0, 25 * M, "available memory"},
		{"huge llc", 300 * M, 6 << 30, 0, 512 * M, "capped"},
		{"limit", 2 * M, 1 << 30, 16 * M, 16 * M, "--max-size"},
	}
	for _, tt := range tests {
		got, reasons := BufferSize(tt.llc, tt.budget, tt.limit)
		if got != tt.want {
			t.Errorf("%s: size %d, want %d", tt.name, got, tt.want)
		}
		joined := strings.Join(reasons, "; ")
		if tt.reason == "" && joined != "" {
			t.Errorf("%s: unexpected reasons %q", tt.name, joined)
		}
		if !strings.Contains(joined, tt.reason) {
			t.Errorf("%s: reasons %q lack %q", tt.name, joined, tt.reason)
		}
	}
}

func TestSliceSize(t *testing.T) {
	if got := SliceSize(32*MiB, 1<<30, 4); got != 8*MiB {
		t.Errorf("4 CPUs: %d", got)
	}
	if got := SliceSize(32*MiB, 1<<30, 16); got != MinSliceBytes {
		t.Errorf("16 CPUs: %d, want the minimum", got)
	}
	if got := SliceSize(32*MiB, 64*MiB, 16); got != 2*MiB {
		t.Errorf("16 CPUs, small budget: %d, want 2 MiB", got)
	}
}

func TestMeasureSmall(t *testing.T) {
	cfg := Config{BufferBytes: 256 << 10, Samples: 2, SampleTime: time.Millisecond}
	figs, err := MeasureCPU(0, noPin, cfg)
	if err != nil {
		t.Fatal(err)
	}
	all, err := MeasureAll([]int{0, 1}, noPin, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range [][]Figure{figs, all} {
		if len(set) != len(AllKernels) {
			t.Fatalf("got %d figures, want %d", len(set), len(AllKernels))
		}
		for _, f := range set {
			if why := f.Kernel.Unavailable(); why != "" {
				if f.MBs != nil || f.Note != why {
					t.Errorf("%s: unavailable (%s) but figure %v note %q", f.Kernel, why, f.MBs, f.Note)
				}
				continue
			}
			if f.MBs == nil || !(*f.MBs > 0) || math.IsInf(*f.MBs, 0) {
				t.Errorf("%s: no positive figure: %v", f.Kernel, f.MBs)
				continue
			}
			if f.Summary.N != 2 || len(f.Summary.Samples) != 2 {
				t.Errorf("%s: %d samples, want 2", f.Kernel, f.Summary.N)
			}
		}
	}
}

func TestPinFailure(t *testing.T) {
	bad := func(int) (func(), error) { return nil, errTest }
	if _, err := MeasureCPU(0, bad, Config{BufferBytes: 1 << 16}); err == nil {
		t.Error("MeasureCPU: pin failure not reported")
	}
	if _, err := MeasureAll([]int{0, 1}, bad, Config{BufferBytes: 1 << 16}); err == nil {
		t.Error("MeasureAll: pin failure not reported")
	}
	if _, err := MeasureAll(nil, noPin, Config{BufferBytes: 1 << 16}); err != ErrNoCPUs {
		t.Errorf("MeasureAll(no CPUs) = %v", err)
	}
}

type testError string

func (e testError) Error() string { return string(e) }

const errTest = testError("cannot pin")

func TestLabels(t *testing.T) {
	for _, k := range AllKernels {
		if k.Label() == "" || k.Label() == string(k) {
			t.Errorf("%s: no label", k)
		}
	}
	if !strings.Contains(CopyGo.Label(), "Go") {
		t.Error("Go's copy must be labelled as such")
	}
	if Kernel("bogus").Unavailable() == "" {
		t.Error("unknown kernel reported available")
	}
}

func TestStop(t *testing.T) {
	stop := make(chan struct{})
	close(stop)
	cfg := Config{BufferBytes: 1 << 16, Samples: 1, SampleTime: time.Millisecond, Stop: stop}
	if figs, err := MeasureCPU(0, noPin, cfg); err != ErrStopped || len(figs) != 0 {
		t.Errorf("MeasureCPU: %v, %d figures", err, len(figs))
	}
	if _, err := MeasureAll([]int{0}, noPin, cfg); err != ErrStopped {
		t.Errorf("MeasureAll: %v", err)
	}
}
