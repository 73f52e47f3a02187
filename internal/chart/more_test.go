package chart

import (
	"strings"
	"testing"
	"time"

	"boardbench/internal/inventory"
	"boardbench/internal/result"
)

// importedResult is shaped like an imported log of a big.LITTLE board:
// two memory latency curves whose CPU is unknown (-1), one per core type,
// and the log's monitor lines in two blocks across midnight.
func importedResult(t *testing.T) *result.Result {
	r := &result.Result{Command: result.CommandImport, StartedAt: time.Date(2018, 1, 28, 23, 50, 0, 0, time.UTC), Info: &inventory.Info{}}
	r.Info.Board.Model = "Hardkernel ODROID-N2"
	for _, core := range []string{"little core", "big core"} {
		mem := result.MemFigures{CPU: -1, Core: core}
		for kib := int64(4); kib <= 64*1024; kib *= 4 {
			ns := 3.0
			if kib > 256 {
				ns = 110
			}
			if core == "big core" {
				ns *= 0.8
			}
			mem.Latency = append(mem.Latency, result.LatencyRow{SizeBytes: kib * 1024, NS: p(ns)})
		}
		fig, err := jsonOf(mem)
		if err != nil {
			t.Fatal(err)
		}
		r.Phases = append(r.Phases, result.Phase{Name: result.PhaseMemory, Figures: fig})
	}
	cols := []string{"Time", "big.LITTLE", "load", "%cpu", "%sys", "%usr", "%nice", "%io", "%irq", "Temp"}
	imp := result.ImportedFigures{File: "x.txt", Monitoring: []result.ImportedMonitoring{
		{While: "tinymembench", Columns: cols, Rows: [][]string{
			{"23:58:00:", "1896/1800MHz", "1.20", "1%", "0%", "0%", "0%", "0%", "0%", "34.3°C"},
			{"23:59:00:", "1896/1800MHz", "1.89", "16%", "0%", "16%", "0%", "0%", "0%", "36.0°C"},
		}},
		{While: "7-zip multi core benchmark", Columns: cols, Rows: [][]string{
			{"00:00:20:", "1800/1800MHz", "5.69", "100%", "0%", "99%", "0%", "0%", "0%", "49.5°C"},
			{"garbage"},
			{"00:01:00:", "1608/1800MHz", "6.00", "100%", "0%", "99%", "0%", "0%", "0%", "55.0°C"},
		}},
	}}
	fig, err := jsonOf(imp)
	if err != nil {
		t.Fatal(err)
	}
	r.Phases = append(r.Phases, result.Phase{Name: result.PhaseImportedLog, Figures: fig})
	return r
}

// TestImportedCharts: every chart of one result has its own name (the two
// latency curves with unknown CPU do not share a file), titles name the
// core type rather than "cpu-1", and the log's monitor lines give
// temperature and clock over time, across midnight.
func TestImportedCharts(t *testing.T) {
	r := importedResult(t)
	ps, err := plots(r)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for _, n := range ps {
		if prev, dup := names[n.name]; dup {
			t.Errorf("name %s used twice (%q, %q)", n.name, prev, n.title)
		}
		names[n.name] = n.title
		if strings.Contains(n.title, "cpu-1") {
			t.Errorf("title %q names cpu-1", n.title)
		}
	}
	want := map[string]string{
		"memory-latency-little-core": "Memory latency on the little core (CPU number unknown)",
		"memory-latency-big-core":    "Memory latency on the big core (CPU number unknown)",
		"imported-temperature":       "Temperature over time (imported log)",
		"imported-clock":             "Clock over time (imported log)",
	}
	for name, title := range want {
		if !strings.HasPrefix(names[name], title) {
			t.Errorf("chart %s: title %q, want %q", name, names[name], title)
		}
	}
	if len(ps) != len(want) {
		t.Errorf("%d charts: %v", len(ps), names)
	}
	for _, n := range ps {
		if n.name != "imported-clock" {
			continue
		}
		// The 7-Zip block is past midnight: 140 s after the first line,
		// not 23 hours before it; the log starts at 0.
		d := parseSVG(t, n.svg())
		lo, hi := 1e9, -1e9
		for _, l := range d.Lines {
			for _, p := range l.Data {
				lo, hi = min(lo, p.X), max(hi, p.X)
			}
		}
		if lo != 0 || hi != 180 {
			t.Errorf("clock chart's points run from %g to %g s, want 0 to 180", lo, hi)
		}
		for _, s := range []string{"big cores", "little cores"} {
			if !d.hasText(s) {
				t.Errorf("clock chart without %q", s)
			}
		}
	}
	// Two curves on an unknown CPU without a core type: numbered.
	r.Phases[0].Figures, _ = jsonOf(result.MemFigures{CPU: -1, Latency: []result.LatencyRow{{SizeBytes: 4096, NS: p(2)}}})
	r.Phases[1].Figures = r.Phases[0].Figures
	ps, err = plots(r)
	if err != nil {
		t.Fatal(err)
	}
	var lat []named
	for _, n := range ps {
		if strings.HasPrefix(n.name, "memory-latency") {
			lat = append(lat, n)
		}
	}
	if len(lat) != 2 || lat[0].name == lat[1].name || !strings.Contains(lat[0].title, "an unknown CPU") {
		t.Errorf("latency charts %+v", lat)
	}
}

// TestSweepOneClock: a sweep without cpufreq measured its one clock twice
// with noise (1954 and 2969 MHz); it is drawn as one clock, one point per
// thread count, and the title says so.
func TestSweepOneClock(t *testing.T) {
	r := &result.Result{Command: "sweep", Info: &inventory.Info{}}
	r.Summary.SweepSummary = &result.SweepSummary{Sweep: []result.SweepRow{
		{Threads: 1, MeasuredMHz: p(1954), MIPS: p(3100)},
		{Threads: 2, MeasuredMHz: p(2969), MIPS: p(6000)},
	}}
	ps, err := plots(r)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 || ps[0].name != "sweep-mips" || !strings.Contains(ps[0].title, "one clock") || ps[0].fig.x.label != "threads" {
		t.Fatalf("charts %+v", ps)
	}
	ps[0].svg()
	if x := ps[0].fig.x; x.lo != 0.5 || x.hi != 2.5 {
		t.Errorf("x axis %g..%g, want the thread counts 1 and 2", x.lo, x.hi)
	}
	if clock, ok := oneClock([]result.SweepRow{{RequestedMHz: p(600)}, {RequestedMHz: p(1000)}}); ok {
		t.Errorf("two OPPs taken for one clock %q", clock)
	}
	if clock, ok := oneClock([]result.SweepRow{{ReportedMHz: p(1800)}, {ReportedMHz: p(1800)}}); !ok || clock != "1800 MHz" {
		t.Errorf("one reported clock: %q %v", clock, ok)
	}
}

// TestNoneReason: a result whose samples carry nothing to draw is told
// apart from one without samples.
func TestNoneReason(t *testing.T) {
	withSamples := &result.Result{Phases: []result.Phase{{Name: "mem"}}}
	withSamples.Phases[0].Samples = make([]result.Sample, 3)
	if cs, _ := ForResult(withSamples); len(cs) != 0 {
		t.Fatalf("%d charts from empty samples", len(cs))
	}
	if got := NoneReason(withSamples); !strings.Contains(got, "monitor samples carry no clock, temperature or power") {
		t.Errorf("with samples: %q", got)
	}
	if got := NoneReason(&result.Result{}); !strings.Contains(got, "no monitor samples") {
		t.Errorf("without samples: %q", got)
	}
}
