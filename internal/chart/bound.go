package chart

import (
	"context"
	"fmt"
)

// Bounds of what one result's charts draw, whatever the result holds: a
// stored result may carry a hundred thousand monitor lines, and a chart
// of all of them costs seconds of CPU and megabytes of SVG for a line no
// screen can show.
const (
	// MaxPoints is the most points one series is drawn with; a longer
	// series is reduced by downsample, which keeps each bucket's lowest
	// and highest value so that peaks and dips stay visible.
	MaxPoints = 1000
	// MaxSeries is the most lines one chart draws; the legend says how
	// many more there were.
	MaxSeries = 16
	// MaxCharts is the most charts drawn for one result.
	MaxCharts = 32
	// GlyphPoints is the most points a series has for its points to be
	// marked with a glyph; a denser series is drawn as a line only.
	GlyphPoints = 100
)

// checkEvery is how many loop iterations pass between two looks at the
// context while charts are built.
const checkEvery = 1024

// downsample returns xys reduced to at most limit points (limit >= 2):
// the points are cut into limit/2 buckets in their order, and of each
// bucket the point with the lowest and the one with the highest Y are
// kept, in their order. A series of at most limit points is returned as
// it is.
func downsample(xys []pt, limit int) []pt {
	n := len(xys)
	if n <= limit || limit < 2 {
		return xys
	}
	buckets := limit / 2
	out := make([]pt, 0, limit)
	for b := 0; b < buckets; b++ {
		lo, hi := b*n/buckets, (b+1)*n/buckets
		if lo >= hi {
			continue
		}
		minI, maxI := lo, lo
		for i := lo + 1; i < hi; i++ {
			if xys[i].Y < xys[minI].Y {
				minI = i
			}
			if xys[i].Y > xys[maxI].Y {
				maxI = i
			}
		}
		first, second := min(minI, maxI), max(minI, maxI)
		out = append(out, xys[first])
		if second != first {
			out = append(out, xys[second])
		}
	}
	return out
}

// ctxCheck returns a function to call in a loop: every checkEvery calls
// it returns ctx's error, if any.
func ctxCheck(ctx context.Context) func() error {
	n := 0
	return func() error {
		n++
		if n%checkEvery != 0 {
			return nil
		}
		return stopped(ctx)
	}
}

// stopped returns ctx's error wrapped for a chart, nil while ctx is live.
func stopped(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("charts: %w", err)
	}
	return nil
}
