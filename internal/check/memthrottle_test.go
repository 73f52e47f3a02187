package check

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"boardbench/internal/result"
)

func TestMemControllerThrottling(t *testing.T) {
	figs := func(samples ...[]float64) result.MemAllCoresFigures {
		f := result.MemAllCoresFigures{}
		f.Samples = map[string]result.BandwidthSamples{}
		for i, k := range result.MemThrottleKernels {
			if i >= len(samples) {
				break
			}
			s := samples[i]
			mean, sd := 0.0, 0.0
			for _, v := range s {
				mean += v
			}
			mean /= float64(len(s))
			for _, v := range s {
				sd += (v - mean) * (v - mean)
			}
			if len(s) > 1 {
				sd = math.Sqrt(sd / float64(len(s)-1))
			}
			f.Samples[k+"_mb_s"] = result.BandwidthSamples{MBs: s, Median: median(append([]float64{}, s...)), RelStdDevPct: 100 * sd / mean}
		}
		return f
	}
	phase := func(name string, f result.MemAllCoresFigures, memMHz float64) result.Phase {
		raw, _ := json.Marshal(f)
		p := result.Phase{Name: name, Status: result.PhaseOK, Figures: raw}
		p.Samples = []result.Sample{{MemClockMHz: &memMHz}, {MemClockMHz: &memMHz}}
		return p
	}
	tight := []float64{10000, 10020, 9990, 10010, 10005}
	cases := []struct {
		name     string
		before   result.MemAllCoresFigures
		after    result.MemAllCoresFigures
		status   string
		evidence []string
	}{
		{"memcpy fell 15%, clock fell", figs(tight, tight), figs([]float64{8500, 8510, 8490, 8520, 8505}, tight), result.PhaseOK,
			[]string{"memcpy: 10005.0 → 8505.0 MB/s (-15.0%)", "memory clock (dmc): median 2112 MHz before, 1560 MHz after"}},
		{"unchanged", figs(tight, tight), figs(tight, tight), result.PhaseOK, nil},
		{"a 2% fall is within the floor", figs(tight), figs([]float64{9800, 9810, 9795, 9805, 9800}), result.PhaseOK, nil},
		{"a fall within a wide spread", figs([]float64{10000, 8000, 12000, 9000, 11000}), figs([]float64{7900, 7500, 7000, 7800, 7600}), result.PhaseOK, nil},
		{"samples overlap", figs([]float64{10000, 10000, 10000, 10000, 8000}), figs([]float64{9000, 9000, 9000, 9000, 9000}), result.PhaseOK, nil},
		{"after phase failed", figs(tight), figs([]float64{5000, 5000, 5000}), result.PhaseFailed, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			after := phase(result.PhaseMemThrottleAfter, c.after, 1560)
			after.Status = c.status
			r := &result.Result{Phases: []result.Phase{phase(result.PhaseMemThrottleBefore, c.before, 2112), after}}
			r.Monitor.MemClock = "dmc"
			got := MemControllerThrottling(r, Facts{})
			if c.evidence == nil {
				if len(got) != 0 {
					t.Fatalf("got %+v, want none", got)
				}
				return
			}
			if len(got) != 1 || got[0].ID != IDMemControllerThrottling {
				t.Fatalf("got %+v", got)
			}
			ev := strings.Join(got[0].Evidence, "\n")
			for _, want := range c.evidence {
				if !strings.Contains(ev, want) {
					t.Errorf("evidence\n%s\nlacks %q", ev, want)
				}
			}
		})
	}
}
