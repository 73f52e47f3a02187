package mem

import (
	"fmt"
	"io"
	"time"

	"boardbench/internal/probe/membw"
	"boardbench/internal/probe/memlat"
)

// progress writes one updating status line with an ETA to a terminal.
// Work is counted in estimated seconds.
type progress struct {
	w       io.Writer
	enabled bool
	total   float64
	worked  float64
	start   time.Time
}

func newProgress(w io.Writer, enabled bool, total float64) *progress {
	return &progress{w: w, enabled: enabled, total: total, start: time.Now()}
}

// step counts weight seconds of work as done and redraws the line.
func (p *progress) step(label string, weight float64) {
	p.worked += weight
	if !p.enabled {
		return
	}
	frac := min(p.worked/max(p.total, 1e-9), 1)
	eta := "?"
	if frac > 0 {
		el := time.Since(p.start).Seconds()
		eta = fmt.Sprintf("%.0f s", el*(1-frac)/frac)
	}
	fmt.Fprintf(p.w, "\r\x1b[Kboardbench mem: %s, %.0f%% (about %s left)", label, 100*frac, eta)
}

// finish clears the line.
func (p *progress) finish() {
	if p.enabled {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

func weightKernel(c membw.Config) float64 {
	return float64(c.Samples+1) * c.SampleTime.Seconds()
}

func weightTotalKernel(c membw.Config) float64 { return weightKernel(c) }

func weightLatencyPoint(c memlat.Config) float64 {
	s, t := c.Samples, c.SampleTime
	if s <= 0 {
		s = memlat.DefaultSamples
	}
	if t <= 0 {
		t = memlat.DefaultSampleTime
	}
	return (2*float64(s)+1.5)*t.Seconds() + 0.001
}

// estimate returns the expected duration of the whole run in seconds.
func estimate(p plan, targets, usable int) float64 {
	kernels := float64(len(membw.AllKernels))
	sizes := float64(len(memlat.Sizes(memlat.DefaultMinBytes, p.lat.MaxBytes, memlat.DefaultLineBytes)))
	if p.lat.HugePages {
		sizes *= 2
	}
	perCPU := kernels*weightKernel(p.bw) + sizes*weightLatencyPoint(p.lat)
	total := float64(targets) * perCPU
	if usable >= 2 {
		tb := p.bw
		tb.Samples = max(tb.Samples-2, 3)
		total += kernels * weightTotalKernel(tb)
	}
	return total
}
