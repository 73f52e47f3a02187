package compare

import (
	"bytes"
	"strings"
	"testing"

	"boardbench/internal/result"
)

// sweepResult is a sweep of the seed's Zero 2 W (policy0, cpu0-3) with
// rows {MHz, threads, MIPS, min, max, temp}, three passes each (the seed
// publishes means and temperatures; the ranges are this test's own).
func sweepResult(rows ...[6]float64) *result.Result {
	r := base()
	r.Command = "sweep"
	r.Summary = result.BuildSummary(nil)
	r.Summary.SweepSummary = &result.SweepSummary{Sweep: []result.SweepRow{}}
	for _, x := range rows {
		row := result.SweepRow{Policy: iptr(0), RequestedMHz: f64(x[0]), ReportedMHz: f64(x[0]), Threads: int(x[1]),
			MIPS: f64(x[2]), MIPSMin: f64(x[3]), MIPSMax: f64(x[4]), TempC: f64(x[5]), Passes: 3}
		r.Summary.Sweep = append(r.Summary.Sweep, row)
	}
	r.Summary.Valid = true
	return r
}

// TestCompareSweepsByClock compares the seed's three sweeps of one Zero 2
// W (bare on a table, with a heatsink, with the heatsink in the official
// enclosure; 4 threads): the rows line up by clock, not by position,
// although the second sweep lists its clocks in another order and the
// third lacks 800 MHz and has 1200 MHz; a clock measured by some results
// only is a note and a "-" in the others' columns; a change within the
// passes' spread is not marked, one beyond it is; the flattened positional
// figures (sweep.0.mips) are gone.
func TestCompareSweepsByClock(t *testing.T) {
	bare := sweepResult([6]float64{1000, 4, 3027, 3020, 3035, 71.8}, [6]float64{800, 4, 2440, 2436, 2444, 62.8}, [6]float64{600, 4, 1828, 1826, 1830, 50.8})
	heatsink := sweepResult([6]float64{600, 4, 1829, 1827, 1831, 47.2}, [6]float64{800, 4, 2446, 2440, 2450, 58.0}, [6]float64{1000, 4, 3034, 3030, 3038, 66.1})
	enclosure := sweepResult([6]float64{1200, 4, 3500, 3490, 3510, 78.0}, [6]float64{1000, 4, 2992, 2990, 2994, 71.4}, [6]float64{600, 4, 1829, 1828, 1830, 56.4})
	c, err := Compare([]Input{{Label: "bare", Result: bare}, {Label: "heatsink", Result: heatsink}, {Label: "enclosure", Result: enclosure}})
	if err != nil {
		t.Fatal(err)
	}
	fig := map[string]Figure{}
	var order []string
	for _, f := range c.Figures {
		fig[f.Key] = f
		order = append(order, f.Key)
		if strings.HasPrefix(f.Key, "sweep.0") || strings.HasPrefix(f.Key, "sweep.1") {
			t.Errorf("positional figure %s", f.Key)
		}
	}
	val := func(key string, i int) string {
		f, ok := fig[key]
		if !ok {
			return "no figure"
		}
		return formatValue(f.Values[i])
	}
	for _, tt := range []struct {
		key  string
		want [3]string
	}{
		{"sweep.mips/policy0/1000MHz/4t", [3]string{"3027", "3034", "2992"}},
		{"sweep.temp_c/policy0/1000MHz/4t", [3]string{"71.8", "66.1", "71.4"}},
		{"sweep.mips/policy0/800MHz/4t", [3]string{"2440", "2446", "-"}},
		{"sweep.mips/policy0/600MHz/4t", [3]string{"1828", "1829", "1829"}},
		{"sweep.mips/policy0/1200MHz/4t", [3]string{"-", "-", "3500"}},
	} {
		for i, w := range tt.want {
			if got := val(tt.key, i); got != w {
				t.Errorf("%s result %d = %s, want %s", tt.key, i, got, w)
			}
		}
	}
	// Highest clock first.
	if i, j := indexOf(order, "sweep.mips/policy0/1200MHz/4t"), indexOf(order, "sweep.mips/policy0/600MHz/4t"); i < 0 || j < i {
		t.Errorf("order %v", order)
	}
	// 1000 MHz: heatsink +0.2 % within the bare sweep's 0.5 % spread;
	// enclosure −1.2 %, beyond both spreads.
	m := fig["sweep.mips/policy0/1000MHz/4t"]
	if m.SpreadPct[0] == nil || *m.SpreadPct[0] != 0.5 || m.BeyondSpread[1] || !m.BeyondSpread[2] {
		t.Errorf("1000 MHz spread %v beyond %v", m.SpreadPct, m.BeyondSpread)
	}
	if _, ok := fig["sweep.power_w/policy0/1000MHz/4t"]; ok {
		t.Error("a power figure although no result has power")
	}
	notes := strings.Join(c.Notes, "\n")
	for _, s := range []string{"sweep 1200 MHz policy0, 4 threads: measured only in enclosure", "sweep 800 MHz policy0, 4 threads: measured only in bare, heatsink"} {
		if !strings.Contains(notes, s) {
			t.Errorf("notes %q lack %q", notes, s)
		}
	}
	if strings.Contains(notes, "1000 MHz") {
		t.Errorf("a clock every sweep measured is noted: %q", notes)
	}
	var b bytes.Buffer
	c.WriteText(&b)
	if !strings.Contains(b.String(), "sweep 1000 MHz policy0, 4 threads: 7-Zip (MIPS)") {
		t.Errorf("text lacks the sweep rows:\n%s", b.String())
	}
}

func indexOf(xs []string, s string) int {
	for i, x := range xs {
		if x == s {
			return i
		}
	}
	return -1
}
