package memmeasure

import (
	"testing"

	"boardbench/internal/result"
)

func TestMemClocks(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	phase := func(name string, cpus []int, mhz ...float64) result.Phase {
		p := result.Phase{Name: name, CPUs: cpus}
		for _, v := range mhz {
			p.Samples = append(p.Samples, result.Sample{MemClockMHz: f(v)})
		}
		return p
	}
	r := &result.Result{Monitor: result.MonitorInfo{MemClock: "dmc"}, Phases: []result.Phase{
		phase(result.PhaseMemory, []int{0}, 528, 2112, 2112),
		phase(result.PhaseMemory, []int{4}),
		phase(result.PhaseMemoryAllCores, []int{0, 1, 2, 3, 4, 5, 6, 7}, 2112),
	}}
	cases := []struct {
		name      string
		out       Figures
		wantMed   []float64 // 0: nil
		wantTotal float64   // 0: nil
	}{
		{"results in another order, total", Figures{Results: []result.MemFigures{{CPU: 4}, {CPU: 0}}, Total: &result.MemAllCoresFigures{}}, []float64{0, 2112}, 2112},
		{"result without a phase, no total", Figures{Results: []result.MemFigures{{CPU: 6}}}, []float64{0}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			mc, total := MemClocks(r, &c.out)
			if len(mc) != len(c.wantMed) {
				t.Fatalf("clocks = %v", mc)
			}
			for i, w := range c.wantMed {
				if (w == 0) != (mc[i] == nil) || (mc[i] != nil && (mc[i].MedianMHz != w || mc[i].Device != "dmc")) {
					t.Errorf("clock %d = %+v, want median %v", i, mc[i], w)
				}
			}
			if (c.wantTotal == 0) != (total == nil) || (total != nil && total.MedianMHz != c.wantTotal) {
				t.Errorf("total = %+v, want %v", total, c.wantTotal)
			}
		})
	}
	if mc, _ := MemClocks(r, &Figures{Results: []result.MemFigures{{CPU: 0}}}); mc[0].MinMHz != 528 || mc[0].MaxMHz != 2112 || mc[0].Samples != 3 {
		t.Errorf("cpu0 clock = %+v", mc[0])
	}
}
