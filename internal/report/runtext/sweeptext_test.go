package runtext

import (
	"strings"
	"testing"

	"boardbench/internal/result"
)

// seedRows are the single-threaded figures of the published Raspberry Pi
// Zero 2 W clock sweep (cpufreq / firmware / measured MHz, 7-Zip MIPS,
// temperature, watts at the wall).
func seedRows() []result.SweepRow {
	type fig struct{ sysfs, fw, measured, mips, temp, mw float64 }
	figs := []fig{{600, 600, 600, 511, 37.4, 1280}, {700, 700, 680, 593, 39.5, 1390}, {800, 800, 800, 676, 39.9, 1510},
		{900, 900, 900, 755, 40.2, 1570}, {1000, 1000, 970, 835, 40.6, 1610}}
	var rows []result.SweepRow
	pol := 0
	// Highest first, as a sweep measures them.
	for i := len(figs) - 1; i >= 0; i-- {
		f := figs[i]
		w := f.mw / 1000
		row := result.SweepRow{Policy: &pol, CPUs: []int{0}, Threads: 1, ReportedMHz: &f.sysfs, RequestedMHz: &f.sysfs,
			FirmwareMHz: &f.fw, MeasuredMHz: &f.measured, MIPS: &f.mips, TempC: &f.temp, PowerW: &w}
		row.MIPSPerW = result.MIPSPerWatt(row.MIPS, row.PowerW)
		rows = append(rows, row)
	}
	return rows
}

// TestSeedMIPSPerWatt computes MIPS/W for the seed's table as the seed
// would: MIPS divided by the watts measured at the wall.
func TestSeedMIPSPerWatt(t *testing.T) {
	want := map[float64]float64{600: 399.2, 700: 426.6, 800: 447.7, 900: 480.9, 1000: 518.6}
	for _, r := range seedRows() {
		if r.MIPSPerW == nil || *r.MIPSPerW != want[*r.ReportedMHz] {
			t.Errorf("%v MHz: MIPS/W %v, want %v", *r.ReportedMHz, r.MIPSPerW, want[*r.ReportedMHz])
		}
	}
	if v := result.MIPSPerWatt(ptr(511), ptr(0)); v != nil {
		t.Errorf("MIPS/W at 0 W = %v, want unknown", *v)
	}
	if v := result.MIPSPerWatt(ptr(511), nil); v != nil {
		t.Errorf("MIPS/W without power = %v, want unknown", *v)
	}
}

func ptr(v float64) *float64 { return &v }

// TestWriteSweepSeedFormat prints the seed's figures in the seed's format
// (lowest clock first, firmware column present) with MIPS/W added.
func TestWriteSweepSeedFormat(t *testing.T) {
	var b strings.Builder
	WriteSweep(&b, seedRows())
	want := `policy0, 1 thread on cpu0:
Sysfs/ThreadX/Tested: MIPS / Temp / Watt / MIPS/W
600 / 600 / 600: 511 37.4°C 1280mW 399.2
700 / 700 / 680: 593 39.5°C 1390mW 426.6
800 / 800 / 800: 676 39.9°C 1510mW 447.7
900 / 900 / 900: 755 40.2°C 1570mW 480.9
1000 / 1000 / 970: 835 40.6°C 1610mW 518.6
most efficient: 1000 MHz, 518.6 MIPS/W
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

// TestWriteSweepNoGain flags a clock that costs more power for the same
// MIPS, drops the firmware column without a firmware, and says when watts
// are unknown.
func TestWriteSweepNoGain(t *testing.T) {
	rows := seedRows()
	for i := range rows {
		rows[i].FirmwareMHz = nil
	}
	// 1000 MHz gives what 900 MHz gives (a power or thermal limit).
	*rows[0].MIPS = 755
	rows[0].MIPSPerW = result.MIPSPerWatt(rows[0].MIPS, rows[0].PowerW)
	var b strings.Builder
	WriteSweep(&b, rows)
	out := b.String()
	for _, s := range []string{"Sysfs/Tested: MIPS / Temp / Watt / MIPS/W\n", "1000 / 970: 755 40.6°C 1610mW 468.9\n",
		"no more performance for more power: 1000 MHz (755 MIPS at 1.61 W; 900 MHz: 755 MIPS at 1.57 W)\n",
		"most efficient: 900 MHz, 480.9 MIPS/W\n"} {
		if !strings.Contains(out, s) {
			t.Errorf("missing %q in\n%s", s, out)
		}
	}
	for i := range rows {
		rows[i].PowerW, rows[i].MIPSPerW = nil, nil
	}
	b.Reset()
	WriteSweep(&b, rows)
	if out := b.String(); !strings.Contains(out, "1000 / 970: 755 40.6°C - -\n") || !strings.Contains(out, "no power source") || strings.Contains(out, "most efficient") {
		t.Errorf("without power:\n%s", out)
	}
}

// TestWriteSweepPasses: a row of three passes ends with the range of the
// MIPS that count; a pass set aside as disturbed is named with its reason;
// a row whose every pass was disturbed says so; a row of one pass keeps
// the published format.
func TestWriteSweepPasses(t *testing.T) {
	rows := seedRows()
	// seedRows is highest clock first: 1000, 900, 800, 700, 600 MHz.
	rows[0].Passes, rows[0].MIPSMin, rows[0].MIPSMax = 3, ptr(830), ptr(840)
	rows[1].Passes, rows[1].MIPSMin, rows[1].MIPSMax = 3, ptr(754), ptr(756)
	rows[1].DisturbedPasses, rows[1].Reason = []int{2}, "other tasks used 20.0% of the CPU time (more than 5%)"
	rows[2].Passes, rows[2].DisturbedPasses, rows[2].Disturbed, rows[2].Reason = 3, []int{1, 2, 3}, true, "7-Zip's own CPU usage was 40% of the 100% it was given"
	rows[2].MIPS, rows[2].MeasuredMHz, rows[2].MIPSPerW = nil, nil, nil
	var b strings.Builder
	WriteSweep(&b, rows)
	out := b.String()
	for _, s := range []string{
		"1000 / 1000 / 970: 835 40.6°C 1610mW 518.6 [3 passes: 830–840 MIPS]\n",
		"900 / 900 / 900: 755 40.2°C 1570mW 480.9 [3 passes: 754–756 MIPS; pass 2 disturbed, left out: other tasks used 20.0% of the CPU time (more than 5%)]\n",
		"800 / 800 / -: - 39.9°C 1510mW - [3 passes] (disturbed, not a figure: 7-Zip's own CPU usage was 40% of the 100% it was given)\n",
		"600 / 600 / 600: 511 37.4°C 1280mW 399.2\n",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("missing %q in\n%s", s, out)
		}
	}
}
