package check

import (
	"strings"
	"testing"
	"time"

	"boardbench/internal/result"
)

// TestHiddenThrottling runs the rule on synthetic heating phases of a Pi
// (one policy): cpufreq steady at 1000 MHz while the firmware clock does
// what each case says, sampled every 10 s for 1500 s.
func TestHiddenThrottling(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	v := func(x float64) *float64 { return &x }
	phase := func(name string, cpus []int, fw func(t int) *float64, kernel func(t int) *float64) result.Phase {
		p := result.Phase{Name: name, CPUs: cpus, Status: result.PhaseOK, StartedAt: start}
		for t := 0; t <= 1500; t += 10 {
			p.Samples = append(p.Samples, result.Sample{Time: start.Add(time.Duration(t) * time.Second), FirmwareMHz: fw(t), ClockMHz: []*float64{kernel(t)}})
		}
		return p
	}
	steady := func(int) *float64 { return v(1000) }
	after := func(at int, low float64) func(int) *float64 {
		return func(t int) *float64 {
			if t >= at && t < at+300 {
				return v(low)
			}
			return v(1000.4)
		}
	}
	cases := []struct {
		name     string
		phases   []result.Phase
		evidence string // "" = no finding
	}{
		{"the Zero 2 W seed's shape: firmware 700 MHz from 900 s", []result.Phase{phase("heat", []int{0, 1, 2, 3}, after(900, 700), steady)},
			"heat: 30 of 151 samples with the firmware clock more than 5% below cpufreq's, down to 700 MHz while cpufreq reported 1000 MHz (first at 900 s)"},
		{"firmware within 5% of cpufreq", []result.Phase{phase("heat", []int{0}, after(900, 960), steady)}, ""},
		{"the kernel sees the drop too (plain throttling)", []result.Phase{phase("heat", []int{0}, after(900, 700), after(900, 700))}, ""},
		{"one stray sample", []result.Phase{phase("heat", []int{0}, func(t int) *float64 {
			if t == 500 {
				return v(600)
			}
			return v(1000)
		}, steady)}, ""},
		{"an idle phase is not judged", []result.Phase{phase("idle", nil, after(0, 600), steady)}, ""},
		{"no firmware clock", []result.Phase{phase("heat", []int{0}, func(int) *float64 { return nil }, steady)}, ""},
		{"no cpufreq clock", []result.Phase{phase("heat", []int{0}, after(0, 600), func(int) *float64 { return nil })}, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := HiddenThrottling(&result.Result{Phases: c.phases}, Facts{})
			if c.evidence == "" {
				if len(got) != 0 {
					t.Fatalf("got %+v, want none", got)
				}
				return
			}
			if len(got) != 1 || got[0].ID != IDHiddenThrottling {
				t.Fatalf("got %+v", got)
			}
			if ev := strings.Join(got[0].Evidence, "\n"); ev != c.evidence {
				t.Errorf("evidence\n%s\nwant\n%s", ev, c.evidence)
			}
		})
	}
}
