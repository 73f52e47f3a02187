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
