package c2c

import (
	"errors"
	"testing"
	"time"

	"boardbench/internal/host"
)

func TestPairsFull(t *testing.T) {
	got := Pairs([]int{3, 0, 1, 2}, nil)
	want := [][2]int{{0, 1}, {0, 2}, {0, 3}, {1, 2}, {1, 3}, {2, 3}}
	if len(got) != len(want) {
		t.Fatalf("got %v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %v, want %v", got, want)
		}
	}
	if got := Pairs([]int{5}, nil); len(got) != 0 {
		t.Errorf("one CPU gave pairs %v", got)
	}
}

func TestPairsSampled(t *testing.T) {
	var cpus []int
	for i := range 32 {
		cpus = append(cpus, i)
	}
	clusters := [][]int{{0, 1, 2, 3, 4, 5, 6, 7}, {8, 9, 10, 11, 12, 13, 14, 15}, {16, 17, 18, 19, 20, 21, 22, 23}, {24, 25, 26, 27, 28, 29, 30, 31}}
	got := Pairs(cpus, clusters)
	have := map[[2]int]bool{}
	for _, p := range got {
		if p[0] >= p[1] {
			t.Fatalf("pair %v not ordered", p)
		}
		if have[p] {
			t.Fatalf("pair %v twice", p)
		}
		have[p] = true
	}
	for _, must := range [][2]int{{8, 16}, {16, 24}, {8, 24}, {0, 31}, {30, 31}, {13, 14}} {
		if !have[must] {
			t.Errorf("pair %v missing", must)
		}
	}
	if full := 32 * 31 / 2; len(got) >= full/4 {
		t.Errorf("%d pairs is not a sample of %d", len(got), full)
	}
}

func TestMatrix(t *testing.T) {
	v := 50.0
	m := Matrix([]int{0, 1, 4}, []Pair{{A: 1, B: 4, NS: &v}, {A: 0, B: 1}})
	if m[1][2] == nil || *m[2][1] != 50 || m[0][1] != nil || m[0][0] != nil {
		t.Errorf("matrix %v", m)
	}
}

func TestMeasurePairErrors(t *testing.T) {
	bad := func(int) (func(), error) { return nil, errors.New("cannot pin") }
	if p := MeasurePair(0, 1, bad, Config{}); p.Error == "" || p.NS != nil {
		t.Errorf("pin failure not reported: %+v", p)
	}
	if p := MeasurePair(1, 1, bad, Config{}); p.Error == "" {
		t.Error("same CPU accepted")
	}
	// The responder pins, the initiator fails: the responder must stop.
	calls := 0
	half := func(int) (func(), error) {
		calls++
		if calls == 2 {
			return nil, errors.New("cannot pin")
		}
		return func() {}, nil
	}
	if p := MeasurePair(0, 1, half, Config{}); p.Error == "" {
		t.Error("initiator pin failure not reported")
	}
	if _, err := Measure(nil, bad, Config{}, nil); err != ErrTooFewCPUs {
		t.Errorf("no pairs: %v", err)
	}
}

func TestMeasurePairLive(t *testing.T) {
	cpus, err := host.AllowedCPUs()
	if err != nil || len(cpus) < 2 {
		t.Skip("needs two CPUs")
	}
	cfg := Config{Samples: 3, SampleTime: 200 * time.Microsecond, Warmup: 200}
	var done int
	res, err := Measure([][2]int{{cpus[0], cpus[1]}}, host.PinThread, cfg, func(d, total int) { done = d })
	if err != nil {
		t.Fatal(err)
	}
	p := res[0]
	if p.Error != "" || p.NS == nil || !(*p.NS > 0) || p.Summary.N != 3 || done != 1 {
		t.Fatalf("pair %+v (progress %d)", p, done)
	}
}
