package mem

import (
	"time"

	"boardbench/internal/iostreams"
	"boardbench/internal/probe/membw"
	"boardbench/internal/probe/memlat"
)

// progress shows how far the measurement is on the status line of
// iostreams (on a terminal only). Work is counted in estimated seconds.
type progress struct {
	st *iostreams.Status
}

// newProgress starts the status line for total estimated seconds of work.
func newProgress(ios *iostreams.IOStreams, total float64) *progress {
	st := ios.NewStatus(iostreams.StatusOptions{Prefix: "boardbench mem"})
	st.Work(seconds(total))
	return &progress{st: st}
}

// step counts weight seconds of work as done and redraws the line.
func (p *progress) step(label string, weight float64) { p.st.Advance(label, seconds(weight)) }

// finish clears the line.
func (p *progress) finish() { p.st.Close() }

// seconds converts estimated seconds to a duration.
func seconds(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }

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
