package headroom

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// fakeClock returns t0 on its first call and t0+10s afterwards.
func fakeClock() func() time.Time {
	var mu sync.Mutex
	t0, calls := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), 0
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		calls++
		if calls == 1 {
			return t0
		}
		return t0.Add(10 * time.Second)
	}
}

// TestLoadCountsWork: the load does work on an allowed CPU (the rate is
// the units counted over the injected clock's 10 s), and a CPU it cannot
// pin to says why.
func TestLoadCountsWork(t *testing.T) {
	l := Start(context.Background(), []int{0, 100000}, fakeClock())
	for l.counts[0].Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	rates := l.Stop()
	if len(rates) != 2 || rates[0].CPU != 0 || rates[0].Err != nil || rates[0].UnitsPerS <= 0 {
		t.Fatalf("rates = %v", rates)
	}
	if got, want := rates[0].UnitsPerS, float64(l.counts[0].Load())/10; got != want {
		t.Errorf("rate %v, want counted units / 10 s = %v", got, want)
	}
	if rates[1].Err == nil || rates[1].UnitsPerS != 0 {
		t.Errorf("cpu 100000: %v, want an error", rates[1])
	}
	if again := l.Stop(); len(again) != 2 {
		t.Errorf("second Stop = %v", again)
	}
}

func TestShare(t *testing.T) {
	tests := []struct {
		loaded, idle Rate
		want         float64
		ok           bool
	}{
		{Rate{UnitsPerS: 50}, Rate{UnitsPerS: 200}, 0.25, true},
		{Rate{UnitsPerS: 250}, Rate{UnitsPerS: 200}, 1, true},
		{Rate{UnitsPerS: 50}, Rate{UnitsPerS: 0}, 0, false},
		{Rate{UnitsPerS: 50}, Rate{Err: errors.New("offline")}, 0, false},
	}
	for _, tt := range tests {
		if got, ok := Share(tt.loaded, tt.idle); got != tt.want || ok != tt.ok {
			t.Errorf("Share(%v, %v) = %v, %v; want %v, %v", tt.loaded, tt.idle, got, ok, tt.want, tt.ok)
		}
	}
}
