package kernelfile

import (
	"strconv"
	"strings"
	"testing"

	"boardbench/internal/testutil/shareddata"
)

// rock5bSeedLog is the ROCK 5B seed's kernel log excerpt (BSP kernel 5.10),
// as dmesg printed it.
const rock5bSeedLog = `[    3.117399] cpu cpu0: pvtm=1528
[    3.117491] cpu cpu0: pvtm-volt-sel=5
[    3.124529] cpu cpu4: pvtm=1785
[    3.128495] cpu cpu4: pvtm-volt-sel=7
[    3.136234] cpu cpu6: pvtm=1782
[    3.140173] cpu cpu6: pvtm-volt-sel=7
`

func fmtSel(s OPPSelection) string {
	f := func(p *int64) string {
		if p == nil {
			return "-"
		}
		return strconv.FormatInt(*p, 10)
	}
	return s.Driver + "|" + s.Device + "|" + f(s.PVTM) + "|" + f(s.PVTMVoltSel) + "|" + f(s.Leakage) + "|" + f(s.LeakageVoltSel)
}

func TestParseOPPSelection(t *testing.T) {
	tests := []struct {
		name string
		log  string
		want []string
	}{
		{"seed", rock5bSeedLog, []string{"cpu|cpu0|1528|5|-|-", "cpu|cpu4|1785|7|-|-", "cpu|cpu6|1782|7|-|-"}},
		{"sbc-bench log lines (no time stamps, indented, with leakage)",
			"           cpu cpu0: leakage=10\n           cpu cpu0: pvtm=1476\n           cpu cpu0: pvtm-volt-sel=3\n" +
				"           rockchip-dmc dmc: leakage=36\n           rockchip-dmc dmc: leakage-volt-sel=1\n           RKNPU fdab0000.npu: leakage=9\n",
			[]string{"cpu|cpu0|1476|3|10|-", "rockchip-dmc|dmc|-|-|36|1", "RKNPU|fdab0000.npu|-|-|9|-"}},
		{"journal prefix", "Nov 27 00:01:02 rock5b kernel: cpu cpu4: pvtm=1722\r\n", []string{"cpu|cpu4|1722|-|-|-"}},
		{"a repeated key keeps the last", "cpu cpu0: pvtm=1\ncpu cpu0: pvtm=2\n", []string{"cpu|cpu0|2|-|-|-"}},
		{"other lines and malformed values are skipped",
			"[ 1.0] cpu cpu0: pvtm=abc\n[ 1.1] cpu cpu0: pvtm=99999999999\ncpu0: pvtm=5\n[ 1.2] cpu cpu0: Failed to get pvtm\n" +
				"[ 1.3] mmc0: new HS200 MMC card\npvtm=7\n[ 1.4] cpu cpu0: temp=5\n\x00\x1b[31m",
			nil},
		{"empty", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseOPPSelection([]byte(tt.log))
			var s []string
			for _, g := range got {
				s = append(s, fmtSel(g))
			}
			if strings.Join(s, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(s, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestParseOPPSelectionSbcBenchLogs reads every RK3588 sbc-bench log with
// PVTM lines: each cpu device found has a pvtm and a volt-sel, and the
// readings lie in the range the logs show (1000-3000).
func TestParseOPPSelectionSbcBenchLogs(t *testing.T) {
	for _, name := range []string{"C6zgdP.txt", "5pv8oh.txt", "8ENy.txt"} {
		data := shareddata.ReadFile(t, "sbc-bench-logs/"+name)
		got := ParseOPPSelection(data)
		cpus := 0
		for _, g := range got {
			if g.Driver != "cpu" {
				continue
			}
			cpus++
			if g.PVTM == nil || g.PVTMVoltSel == nil {
				t.Errorf("%s: %s lacks pvtm or its volt-sel: %s", name, g.Device, fmtSel(g))
				continue
			}
			if *g.PVTM < 1000 || *g.PVTM > 3000 || *g.PVTMVoltSel < 0 || *g.PVTMVoltSel > 15 {
				t.Errorf("%s: implausible %s", name, fmtSel(g))
			}
		}
		if cpus != 3 {
			t.Errorf("%s: %d cpu devices, want 3 (cpu0, cpu4, cpu6)", name, cpus)
		}
	}
}
