package chart

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"boardbench/internal/inventory"
	"boardbench/internal/result"
)

// TestTimeSegments: readings are sorted by time, a repeated time is drawn
// once, the line starts at the origin and breaks where a pause is longer
// than GapFactor sampling intervals of the blocks on both sides.
func TestTimeSegments(t *testing.T) {
	tests := []struct {
		name   string
		in     []tpoint
		origin float64
		want   string
	}{
		{"sorted, repeat dropped", []tpoint{{30, 3, 1}, {10, 1, 0}, {20, 2, 0}, {30, 9, 1}, {40, 4, 1}}, 10, "0,1 10,2 20,3 30,4"},
		{"gap between blocks", []tpoint{{0, 1, 0}, {10, 1, 0}, {20, 1, 0}, {200, 2, 1}, {210, 2, 1}}, 0, "0,1 10,1 20,1 | 200,2 210,2"},
		{"slow block is no gap", []tpoint{{0, 1, 0}, {10, 1, 0}, {20, 1, 0}, {60, 2, 1}, {105, 2, 1}, {150, 2, 1}}, 0, "0,1 10,1 20,1 60,2 105,2 150,2"},
		{"gap inside a block", []tpoint{{0, 1, 0}, {5, 1, 0}, {10, 1, 0}, {100, 1, 0}, {105, 1, 0}}, 0, "0,1 5,1 10,1 | 100,1 105,1"},
		{"one reading", []tpoint{{7, 1, 0}}, 7, "0,1"},
	}
	for _, tc := range tests {
		var parts []string
		for _, s := range timeSegments(tc.in, tc.origin) {
			var ps []string
			for _, p := range s {
				ps = append(ps, fmt.Sprintf("%g,%g", p.X, p.Y))
			}
			parts = append(parts, strings.Join(ps, " "))
		}
		if got := strings.Join(parts, " | "); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// TestClearStep: a cache level is marked only on a step with a plateau on
// both sides; a level found in noise, on a curve that keeps rising, or
// where the curve levels off too little above it is not.
func TestClearStep(t *testing.T) {
	curve := func(ns ...float64) []pt {
		var out []pt
		for i, v := range ns {
			out = append(out, pt{X: float64(int64(4096) << i), Y: v})
		}
		return out
	}
	kib := func(k int64) float64 { return float64(k << 10) }
	tests := []struct {
		name  string
		curve []pt
		at    float64
		want  bool
	}{
		{"L1 to L2", curve(2, 2, 2, 15, 15, 15), kib(16), true},
		{"slow rise over two doublings", curve(2, 2, 2, 5, 11, 12, 12), kib(16), true},
		{"noise on a plateau", curve(2, 2.1, 2, 2.2, 2.1, 2), kib(16), false},
		{"still rising", curve(2, 2, 2, 4, 8, 16, 32, 64, 128), kib(16), false},
		{"no plateau before", curve(1, 2, 4, 15, 15, 15), kib(16), false},
		{"step too small", curve(10, 10, 10, 13, 13.5, 13.5), kib(16), false},
		{"last point", curve(2, 2, 2, 15), kib(32), false},
		{"size not on the curve", curve(2, 2, 2, 15, 15, 15), kib(1 << 20), false},
	}
	for _, tc := range tests {
		if got := clearStep(tc.curve, tc.at); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestThrottledSpans: a clock below its top is shaded only under load; a
// firmware clock below cpufreq's is shaded whatever the load; an idle
// clock is not.
func TestThrottledSpans(t *testing.T) {
	r := &result.Result{}
	r.Monitor.Policies = []result.Policy{{ID: 0, CPUs: []int{0, 1}}, {ID: 2, CPUs: []int{2, 3}}}
	r.Phases = []result.Phase{{Evidence: result.Evidence{TimeInState: []result.PolicyTime{{Policy: 0, TopMHz: 1800}, {Policy: 2, TopMHz: 2400}}}}}
	s := func(c0, c2, fw float64, busy map[int]float64) result.Sample {
		smp := result.Sample{ClockMHz: []*float64{p(c0), p(c2)}, PerCPUBusyPct: busy}
		if fw > 0 {
			smp.FirmwareMHz = p(fw)
		}
		return smp
	}
	idle := map[int]float64{0: 3, 1: 2, 2: 1, 3: 0}
	bigBusy := map[int]float64{0: 3, 1: 2, 2: 100, 3: 0}
	samples := []result.Sample{
		s(1800, 2400, 0, bigBusy), // at the top
		s(408, 408, 0, idle),      // idle: low clock is the governor's
		s(1800, 2016, 0, bigBusy), // big cluster below its top under load
		s(1000, 2400, 0, bigBusy), // little cluster low, but idle
		s(1800, 2400, 1500, idle), // firmware caps
	}
	got := throttled(r, samples)
	want := []bool{false, false, true, false, true}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("sample %d: throttled %v, want %v", i, got[i], want[i])
		}
	}
	spans := runs([]float64{0, 10, 20, 30, 40}, got)
	if len(spans) != 2 || spans[0] != (span{15, 25}) || spans[1] != (span{35, 40}) {
		t.Errorf("spans %v", spans)
	}
}

// TestImportedOrder: the charts of the imported logs run from 0, in
// order of time, never back (the Pi 5 log repeats its last line in a
// summary ahead of the others).
func TestImportedOrder(t *testing.T) {
	for _, fx := range fixtures() {
		cs, err := ForResult(fx.result(t))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cs {
			if !strings.HasPrefix(c.Name, "imported-") {
				continue
			}
			for _, l := range parseSVG(t, c.SVG).Lines {
				if l.Segment == 0 && l.Data[0].X != 0 {
					t.Errorf("%s %s %q starts at %g s", fx.name, c.Name, l.Series, l.Data[0].X)
				}
				for i := 1; i < len(l.Data); i++ {
					if l.Data[i].X <= l.Data[i-1].X {
						t.Errorf("%s %s %q: time goes back at %g s", fx.name, c.Name, l.Series, l.Data[i].X)
						break
					}
				}
			}
		}
	}
}

// TestCompareChart: one chart per headline figure some result has, a bar
// per result in order, "unknown" for a result without the figure, labels
// numbered when they would read the same.
func TestCompareChart(t *testing.T) {
	mk := func(model string, multi *float64) *result.Result {
		r := &result.Result{Command: "run", Info: &inventory.Info{}}
		r.Info.Board.Model = model
		r.Summary.SevenZipMultiMIPS = multi
		return r
	}
	cs, err := Compare([]Item{{Label: "a.json", Result: mk("Board A", p(3000))}, {Label: "a.json", Result: mk("Board A", nil)}, {Label: "c.json", Result: mk("Board C", p(12000))}, {Label: "nil"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Name != "compare-sevenzip-multi-mips" {
		t.Fatalf("charts %v", cs)
	}
	d := parseSVG(t, cs[0].SVG)
	if len(d.Bars) != 2 || d.Bars[0].Category != "1. a.json — Board A" || d.Bars[0].Value != 3000 || d.Bars[1].Category != "c.json — Board C" || d.Bars[1].Value != 12000 {
		t.Errorf("bars %+v", d.Bars)
	}
	if d.Bars[1].W <= d.Bars[0].W*3.9 || d.Bars[1].W >= d.Bars[0].W*4.1 {
		t.Errorf("bar lengths %g and %g are not as 3000 to 12000", d.Bars[0].W, d.Bars[1].W)
	}
	if !d.hasText("unknown") || !d.hasText("2. a.json — Board A") {
		t.Errorf("the result without the figure is not shown as unknown: %q", d.Texts)
	}
	if cs, _ := Compare(nil); len(cs) != 0 {
		t.Errorf("%d charts of nothing", len(cs))
	}
}

// TestTextWidth: the width estimate errs on the wide side of common
// sans-serif fonts and grows with the text.
func TestTextWidth(t *testing.T) {
	if w := textWidth("Memory latency", 10); w < 70 || w > 95 {
		t.Errorf("width %g", w)
	}
	if textWidth("MMMM", 10) <= textWidth("iiii", 10) {
		t.Error("wide glyphs not wider")
	}
	lines := wrap("a long title that does not fit on one line of the chart at all", 15, 200)
	for _, l := range lines {
		if textWidth(l, 15) > 200+1e-9 {
			t.Errorf("line %q too wide", l)
		}
	}
	if len(lines) < 2 {
		t.Errorf("not wrapped: %q", lines)
	}
	if math.IsNaN(textWidth("", 10)) {
		t.Error("NaN")
	}
}

// TestLongSeriesBounded: a day of monitor samples (100,000) is drawn with
// at most MaxPoints points per line, gaps kept.
func TestLongSeriesBounded(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := &result.Result{StartedAt: start, Info: &inventory.Info{}}
	var samples []result.Sample
	for i := 0; i < 100_000; i++ {
		at := time.Duration(i) * time.Second
		if i >= 50_000 {
			at += time.Hour // a pause: the line breaks
		}
		samples = append(samples, result.Sample{Time: start.Add(at), TempC: p(40 + float64(i%100)/10)})
	}
	r.Phases = []result.Phase{{Name: "monitor", Evidence: result.Evidence{Samples: samples}}}
	cs, err := ForResult(r)
	if err != nil || len(cs) != 1 {
		t.Fatalf("%d charts, %v", len(cs), err)
	}
	d := parseSVG(t, cs[0].SVG)
	n := 0
	for _, l := range d.Lines {
		n += len(l.Data)
	}
	if n > MaxPoints || n < MaxPoints/2 || len(d.Lines) != 2 {
		t.Errorf("%d points in %d segments, want at most %d in 2", n, len(d.Lines), MaxPoints)
	}
}
