package memmeasure

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"boardbench/internal/probe/membw"
	"boardbench/internal/result"
	"boardbench/internal/stats"
)

// fakeClock advances by step on every reading: the load's deadline and
// series depend on it, never on the machine's speed.
type fakeClock struct {
	t    time.Time
	step time.Duration
}

func (c *fakeClock) now() time.Time { c.t = c.t.Add(c.step); return c.t }

// fakeBandwidth answers every kernel with the samples rate(call) gives,
// counting its calls and the configurations it was asked for.
type fakeBandwidth struct {
	calls int
	cfgs  []membw.Config
	rate  func(call int, k membw.Kernel) float64
	err   error
}

func (b *fakeBandwidth) measure(ctx context.Context, cpus []int, cfg membw.Config) ([]membw.Figure, error) {
	b.calls++
	b.cfgs = append(b.cfgs, cfg)
	if b.err != nil {
		return nil, b.err
	}
	var out []membw.Figure
	for _, k := range cfg.Kernels {
		var s []float64
		for i := 0; i < max(cfg.Samples, 1); i++ {
			s = append(s, b.rate(b.calls, k)+float64(i))
		}
		sum := stats.Summarize(s)
		m := sum.Median
		out = append(out, membw.Figure{Kernel: k, MBs: &m, Summary: sum})
	}
	return out, nil
}

func TestThrottleSteps(t *testing.T) {
	bw := &fakeBandwidth{rate: func(call int, k membw.Kernel) float64 {
		if call == 1 {
			return 10000 // before
		}
		return 9000 // the load's stretches and after
	}}
	clock := &fakeClock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), step: 500 * time.Millisecond}
	p := NewThrottlePlan(false, 10*time.Second)
	p.Measure, p.Now = bw.measure, clock.now
	var out ThrottleFigures
	steps := ThrottleSteps([]int{0, 1, 2, 3}, p, &out)
	names := []string{result.PhaseMemThrottleBefore, result.PhaseMemThrottleLoad, result.PhaseMemThrottleAfter}
	if len(steps) != 3 {
		t.Fatalf("%d steps", len(steps))
	}
	phases := make([]result.Phase, 3)
	for i, st := range steps {
		if st.Name != names[i] {
			t.Errorf("step %d is %s, want %s", i, st.Name, names[i])
		}
		if err := st.Run(context.Background(), &phases[i]); err != nil {
			t.Fatalf("%s: %v", st.Name, err)
		}
	}
	if steps[1].Estimate != 10*time.Second {
		t.Errorf("load estimate %v", steps[1].Estimate)
	}
	// The load: each stretch reads the clock twice (loop test, series
	// point), so 10 s at 0.5 s per reading is 10 stretches.
	if out.Load == nil || len(out.Load.Series) != 10 {
		t.Fatalf("load %+v", out.Load)
	}
	if out.Load.RequestedS != 10 || out.Load.FirstMBs == nil || *out.Load.FirstMBs != 9000 || out.Load.Kernel != "memcpy" {
		t.Errorf("load figures %+v", out.Load)
	}
	for _, cfg := range bw.cfgs[1:11] {
		if len(cfg.Kernels) != 1 || cfg.Kernels[0] != membw.Memcpy || cfg.Samples != 1 || cfg.SampleTime != time.Second {
			t.Errorf("load stretch config %+v", cfg)
		}
	}
	if c := bw.cfgs[0]; len(c.Kernels) != 3 || c.Samples != 7 || c.SampleTime != 200*time.Millisecond {
		t.Errorf("before config %+v", c)
	}
	changes := result.CompareMemThrottle(out.Before, out.After)
	if len(changes) != 3 || changes[0].Kernel != "memcpy" || changes[0].ChangePct != -10 || !changes[0].Separated {
		t.Errorf("changes %+v", changes)
	}
	var fromPhase result.MemAllCoresFigures
	if err := json.Unmarshal(phases[2].Figures, &fromPhase); err != nil || fromPhase.MemcpyMBs == nil || *fromPhase.MemcpyMBs != 9003 {
		t.Errorf("after phase figures %s (%v)", phases[2].Figures, err)
	}
}

func TestThrottleLoadStops(t *testing.T) {
	t.Run("interrupted", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		bw := &fakeBandwidth{rate: func(call int, _ membw.Kernel) float64 {
			if call == 3 {
				cancel()
			}
			return 5000
		}}
		clock := &fakeClock{t: time.Unix(0, 0), step: time.Second}
		p := NewThrottlePlan(true, time.Hour)
		p.Measure, p.Now = bw.measure, clock.now
		fig, err := p.runLoad(ctx, []int{0}, 1<<20)
		if !errors.Is(err, context.Canceled) || len(fig.Series) != 3 || len(fig.Notes) != 1 || fig.Notes[0] != "load interrupted" {
			t.Errorf("got %+v, %v", fig, err)
		}
	})
	t.Run("failing kernel", func(t *testing.T) {
		bw := &fakeBandwidth{err: errors.New("cannot map buffers")}
		clock := &fakeClock{t: time.Unix(0, 0), step: time.Second}
		p := NewThrottlePlan(true, time.Minute)
		p.Measure, p.Now = bw.measure, clock.now
		fig, err := p.runLoad(context.Background(), []int{0}, 1<<20)
		if err == nil || bw.calls != 1 || len(fig.Series) != 0 || fig.FirstMBs != nil {
			t.Errorf("got %+v, %v after %d calls", fig, err, bw.calls)
		}
	})
}

func TestThrottleEstimate(t *testing.T) {
	p := NewThrottlePlan(false, DefaultThrottleLoad)
	// 2 × 3 kernels × 8 samples × 200 ms + 5 min.
	if got, want := p.Estimate(), 5*time.Minute+9600*time.Millisecond; got != want {
		t.Errorf("Estimate() = %v, want %v", got, want)
	}
}
