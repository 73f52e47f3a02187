package runtext

import (
	"bytes"
	"strings"
	"testing"

	"boardbench/internal/result"
)

func TestMemClockText(t *testing.T) {
	cases := []struct {
		name    string
		dev     string
		samples []result.Sample
		want    string
	}{
		{"none sampled", "dmc", []result.Sample{{}, {}}, "unknown (no memory-controller clock sampled)"},
		{"steady", "dmc", []result.Sample{{MemClockMHz: f64(2112)}, {MemClockMHz: f64(2112)}, {}}, "2112 MHz (dmc, 2 samples)"},
		{"moving", "dmc", []result.Sample{{MemClockMHz: f64(528)}, {MemClockMHz: f64(2112)}, {MemClockMHz: f64(1560)}}, "1560 MHz (dmc, 528–2112 MHz over 3 samples)"},
		{"even count, unnamed", "", []result.Sample{{MemClockMHz: f64(1068)}, {MemClockMHz: f64(2112)}}, "1590 MHz (devfreq, 1068–2112 MHz over 2 samples)"},
		{"one sample", "dmc", []result.Sample{{MemClockMHz: f64(528)}}, "528 MHz (dmc, 1 sample)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := MemClockText(result.MemClockOf(c.dev, c.samples)); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

// TestMemoryPhaseShowsMemClock: a run's memory phase prints the memory
// clock its samples read next to the bandwidth table.
func TestMemoryPhaseShowsMemClock(t *testing.T) {
	r := completeRK3588()
	r.Monitor.MemClock = "dmc"
	for i := range r.Phases {
		if r.Phases[i].Name == result.PhaseMemory {
			for j := range r.Phases[i].Samples {
				r.Phases[i].Samples[j].MemClockMHz = f64(2112)
			}
		}
	}
	var b bytes.Buffer
	Render(&b, r, false)
	out := b.String()
	i := strings.Index(out, "bandwidth on cpu0")
	j := strings.Index(out, "memory clock during the phase: 2112 MHz (dmc, 2 samples)")
	if i < 0 || j < i {
		t.Errorf("memory clock missing after the bandwidth of cpu0:\n%s", out)
	}
}
