package chart

import (
	"testing"
)

// TestDownsample: a long series keeps at most the limit of points, in
// order, with its extremes (a one-point spike and dip survive).
func TestDownsample(t *testing.T) {
	long := make([]pt, 100_000)
	for i := range long {
		long[i] = pt{X: float64(i), Y: float64(i % 10)}
	}
	long[54_321].Y, long[77_777].Y = 1000, -1000
	for _, c := range []struct {
		name  string
		in    []pt
		limit int
		want  int // points kept; -1: at most limit
	}{
		{"short stays", long[:10], 1000, 10},
		{"exact stays", long[:1000], 1000, 1000},
		{"long is cut", long, 1000, -1},
		{"odd limit", long, 999, -1},
	} {
		got := downsample(c.in, c.limit)
		switch {
		case c.want >= 0 && len(got) != c.want:
			t.Errorf("%s: %d points, want %d", c.name, len(got), c.want)
		case c.want < 0 && (len(got) > c.limit || len(got) < c.limit/2):
			t.Errorf("%s: %d points, want at most %d", c.name, len(got), c.limit)
		}
		for i := 1; i < len(got); i++ {
			if got[i].X <= got[i-1].X {
				t.Fatalf("%s: points out of order at %d", c.name, i)
			}
		}
		if len(c.in) == len(long) {
			hi, lo := false, false
			for _, p := range got {
				hi = hi || p.Y == 1000
				lo = lo || p.Y == -1000
			}
			if !hi || !lo {
				t.Errorf("%s: the spike (%v) or the dip (%v) was lost", c.name, hi, lo)
			}
		}
	}
}
