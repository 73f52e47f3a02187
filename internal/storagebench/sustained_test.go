package storagebench

import (
	"boardbench/internal/testutil/loopfs"
	"context"
	"errors"
	"os"
	"testing"
)

func TestFallRule(t *testing.T) {
	for _, tc := range []struct {
		name  string
		rates []float64
		want  int
	}{
		{"steady", []float64{100, 98, 102, 99, 101, 100, 97}, -1},
		{"cache fills after 5 windows", []float64{100, 100, 100, 100, 100, 30, 31, 29, 30}, 5},
		{"one slow window is noise", []float64{100, 100, 100, 30, 100, 100, 100}, -1},
		{"three slow windows are not enough", []float64{100, 100, 100, 100, 30, 30, 30}, -1},
		{"too few windows before the fall", []float64{100, 100, 30, 30, 30, 30}, -1},
		{"a mild dip stays above 60%", []float64{100, 100, 100, 70, 65, 62, 61}, -1},
		{"a gradual fall is caught once below 60% of the median", []float64{100, 100, 100, 100, 55, 50, 45, 40}, 4},
	} {
		if got := Fall(tc.rates); got != tc.want {
			t.Errorf("%s: Fall = %d, want %d", tc.name, got, tc.want)
		}
	}
}

func TestSummarizeSustained(t *testing.T) {
	rates := []float64{100, 100, 100, 100, 30, 20, 40, 30}
	f := StorageSustainedForTest(rates, 1<<20)
	summarizeSustained(&f, rates)
	if !f.Fell || f.CacheBytes == nil || *f.CacheBytes != 4<<20 || *f.KBsBefore != 100 || *f.KBsAfter != 30 {
		t.Errorf("fell %v cache %v before %v after %v; want a fall after 4 MiB, 100 then 30", f.Fell, f.CacheBytes, f.KBsBefore, f.KBsAfter)
	}
	steady := []float64{50, 60, 70}
	g := StorageSustainedForTest(steady, 1<<20)
	summarizeSustained(&g, steady)
	if g.Fell || g.CacheBytes != nil || g.KBsAfter != nil || *g.KBsBefore != 60 {
		t.Errorf("steady: %+v", g)
	}
}

func TestCheckSustained(t *testing.T) {
	for _, tc := range []struct {
		size, free int64
		ok         bool
	}{
		{128 << 20, 200 << 20, true},
		{128 << 20, 190 << 20, false}, // 64 MiB kept free
		{64 << 20, 1 << 30, false},    // below the smallest size
		{1 << 30, 1<<30 + 64<<20, true}, {1 << 30, 1<<30 + 63<<20, false},
		{10 << 30, 12 << 30, true}, // 12 GiB/20 kept free
		{12 << 30, 12 << 30, false},
	} {
		err := CheckSustained(tc.size, tc.free)
		if (err == nil) != tc.ok {
			t.Errorf("CheckSustained(%d MiB, %d MiB) = %v, want ok=%v", tc.size>>20, tc.free>>20, err, tc.ok)
		}
	}
}

// TestSustainedOnSmallFS writes on a small loop-device file system: up to
// SIZE, then beyond what it holds (the no-space stop); nothing is left.
func TestSustainedOnSmallFS(t *testing.T) {
	mnt, _ := loopfs.Make(t, 96<<20)
	f, err := Sustained(context.Background(), SustainedConfig{Dir: mnt, MaxBytes: 24 << 20, WindowBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if !f.Direct || f.StoppedBy != "size" && f.StoppedBy != "fall" || len(f.Windows) == 0 || f.Windows[len(f.Windows)-1].WrittenBytes != f.WrittenBytes || f.KBsBefore == nil {
		t.Errorf("figures %+v", f)
	}
	if f.StoppedBy == "size" && f.WrittenBytes != 24<<20 {
		t.Errorf("stopped by size after %d bytes, want 24 MiB", f.WrittenBytes)
	}
	if f.Fell != (f.CacheBytes != nil) {
		t.Errorf("fell %v, cache %v", f.Fell, f.CacheBytes)
	}
	full, err := Sustained(context.Background(), SustainedConfig{Dir: mnt, MaxBytes: 200 << 20, WindowBytes: 1 << 20})
	if err != nil && !errors.Is(err, ErrNoSpace) {
		t.Logf("error: %v", err)
	}
	if full.StoppedBy != "no space" && full.StoppedBy != "fall" {
		t.Errorf("200 MiB on a 96 MiB file system stopped by %q (%s)", full.StoppedBy, full.Error)
	}
	if ents, _ := os.ReadDir(mnt); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}

func TestWindowFor(t *testing.T) {
	for _, tc := range []struct{ size, want int64 }{
		{128 << 20, 16 << 20}, {4 << 30, 64 << 20}, {64 << 30, 256 << 20}, {1 << 40, 256 << 20},
	} {
		if got := WindowFor(tc.size); got != tc.want {
			t.Errorf("WindowFor(%d MiB) = %d MiB, want %d", tc.size>>20, got>>20, tc.want>>20)
		}
	}
}
