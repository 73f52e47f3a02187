package benchrun

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"boardbench/internal/check"
	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/soc"
	"boardbench/internal/result"
)

func phaseWith(t *testing.T, name string, cpus []int, figs any) result.Phase {
	t.Helper()
	p := result.Phase{Name: name, CPUs: cpus, Status: result.PhaseOK}
	if err := p.SetFigures(figs); err != nil {
		t.Fatal(err)
	}
	return p
}

func ip(v int) *int { return &v }

func TestBuildSummary(t *testing.T) {
	phases := []result.Phase{
		phaseWith(t, result.PhaseClock, []int{0, 4}, result.ClockFigures{Clusters: []result.ClockCluster{
			{ClockMeasurement: result.ClockMeasurement{CPU: ip(0), Core: "A55", MeasuredMHz: f64(1800)}},
			{ClockMeasurement: result.ClockMeasurement{CPU: ip(4), Core: "A76", MeasuredMHz: f64(2350)}},
			{ClockMeasurement: result.ClockMeasurement{CPU: nil, Core: "X1"}, Error: "offline"},
		}}),
		phaseWith(t, result.PhaseMemory, []int{0}, result.MemFigures{CPU: 0, Core: "A55", MemBandwidth: result.MemBandwidth{MemcpyMBs: f64(3000), MemsetMBs: f64(9000)}}),
		phaseWith(t, result.PhaseMemory, []int{4}, result.MemFigures{CPU: 4, Core: "A76", MemBandwidth: result.MemBandwidth{MemcpyMBs: f64(6000)}}),
		phaseWith(t, result.PhaseOpenSSL, []int{0}, result.OpenSSLFigures{CPUs: []int{0}, Core: "A55", Ciphers: []result.OpenSSLCipher{
			{Cipher: "aes-128-cbc", Values: []result.OpenSSLValue{{BlockBytes: 16384, KBs: f64(1)}}},
			{Cipher: "aes-256-cbc", Values: []result.OpenSSLValue{{BlockBytes: 8192, KBs: f64(2)}, {BlockBytes: 16384, KBs: f64(700000)}}},
		}}),
		// OpenSSL 1.0: no 16 KiB column, so no value rather than the 8 KiB one.
		phaseWith(t, result.PhaseOpenSSL, []int{4}, result.OpenSSLFigures{CPUs: []int{4}, Core: "A76", Ciphers: []result.OpenSSLCipher{
			{Cipher: "aes-256-cbc", Values: []result.OpenSSLValue{{BlockBytes: 8192, KBs: f64(5)}}},
		}}),
		phaseWith(t, result.PhaseSevenZipSingle, []int{0}, result.SevenZipFigures{CPUs: []int{0}, Core: "A55", TotMIPS: f64(1500)}),
		phaseWith(t, result.PhaseSevenZipSingle, []int{4}, result.SevenZipFigures{CPUs: []int{4}, Core: "A76", TotMIPS: nil}),
		phaseWith(t, result.PhaseSevenZipMulti, []int{0, 4}, result.SevenZipFigures{Runs: []result.SevenZipRun{
			{TotMIPS: f64(10000)}, {TotMIPS: f64(9900)}, {TotMIPS: f64(9500)},
		}}),
		// The clock after load does not replace the first measurement.
		phaseWith(t, result.PhaseClockAfterLoad, []int{0}, result.ClockFigures{Clusters: []result.ClockCluster{{ClockMeasurement: result.ClockMeasurement{CPU: ip(0), MeasuredMHz: f64(1000)}}}}),
		{Name: result.PhaseSevenZipSingle, Status: result.PhaseSkipped},
	}
	s := result.BuildSummary(phases)
	check := func(name string, got, want []result.Value) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s = %+v, want %+v", name, got, want)
		}
	}
	check("clock", s.ClockMHz, []result.Value{{CPU: 0, Core: "A55", Value: 1800}, {CPU: 4, Core: "A76", Value: 2350}})
	check("memcpy", s.MemcpyMBs, []result.Value{{CPU: 0, Core: "A55", Value: 3000}, {CPU: 4, Core: "A76", Value: 6000}})
	check("memset", s.MemsetMBs, []result.Value{{CPU: 0, Core: "A55", Value: 9000}})
	check("aes", s.AES256At16K, []result.Value{{CPU: 0, Core: "A55", Value: 700000}})
	check("7zip single", s.SevenZipSingleMIPS, []result.Value{{CPU: 0, Core: "A55", Value: 1500}})
	if s.SevenZipMultiMIPS == nil || *s.SevenZipMultiMIPS != 9800 || !reflect.DeepEqual(s.SevenZipMultiRuns, []float64{10000, 9900, 9500}) {
		t.Errorf("multi = %v %v, want the mean 9800 of 3 runs", s.SevenZipMultiMIPS, s.SevenZipMultiRuns)
	}
	data, err := json.Marshal(result.BuildSummary(nil))
	if err != nil {
		t.Fatal(err)
	}
	// Empty lists, not null, and no invented multi figure.
	want := `{"clock_mhz":[],"clock_all_disturbed_mhz":[],"sevenzip_multi_mips":null,"sevenzip_multi_mips_all_runs":null,"sevenzip_multi_runs":[],` +
		`"sevenzip_multi_disturbed_runs":[],"sevenzip_multi_mips_undisturbed":null,"sevenzip_multi_basis":"",` +
		`"sevenzip_single_mips":[],"sevenzip_single_disturbed_cpus":[],"aes256_16k":[],"memcpy_mb_s":[],"memset_mb_s":[],"valid":false,"verdict":""}`
	if string(data) != want {
		t.Errorf("empty summary = %s", data)
	}
}

func TestMeanAndDrift(t *testing.T) {
	tests := []struct {
		runs        []result.SevenZipRun
		mean, drift *float64
	}{
		{nil, nil, nil},
		{[]result.SevenZipRun{{TotMIPS: f64(1000)}}, f64(1000), nil},
		{[]result.SevenZipRun{{TotMIPS: f64(1000)}, {Failure: "oom_killed"}}, f64(1000), nil},
		{[]result.SevenZipRun{{TotMIPS: f64(1000)}, {TotMIPS: f64(1001)}, {TotMIPS: f64(900)}}, f64(967), f64(-10)},
	}
	for i, tt := range tests {
		m, d := result.MeanAndDrift(tt.runs)
		if !reflect.DeepEqual(m, tt.mean) || !reflect.DeepEqual(d, tt.drift) {
			t.Errorf("%d: mean %v drift %v", i, fp(m), fp(d))
		}
	}
}

func fp(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func TestDefaultFileName(t *testing.T) {
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.Local)
	tests := []struct {
		soc, host, want string
	}{
		{"Rockchip RK3588", "rock5b", "boardbench-rockchip-rk3588-20260304-050607.json"},
		{"Allwinner H616 or Allwinner H618", "opi", "boardbench-opi-20260304-050607.json"},
		{"", "My Board_01", "boardbench-my-board-01-20260304-050607.json"},
		{"", "", "boardbench-machine-20260304-050607.json"},
		{"", "../../etc", "boardbench-etc-20260304-050607.json"},
	}
	for _, tt := range tests {
		info := &inventory.Info{SoC: soc.SoC{Guess: tt.soc}}
		if got := DefaultFileName(info, tt.host, at); got != tt.want {
			t.Errorf("DefaultFileName(%q, %q) = %q, want %q", tt.soc, tt.host, got, tt.want)
		}
	}
}

func TestTargets(t *testing.T) {
	mhz := func(v float64) *float64 { return &v }
	rk3588 := cpu.Info{Clusters: []cpu.Cluster{
		{CPUs: []int{0, 1, 2, 3}, Core: "Cortex-A55", MaxMHz: mhz(1800)},
		{CPUs: []int{4, 5}, Core: "Cortex-A76", MaxMHz: mhz(2256)},
		{CPUs: []int{6, 7}, Core: "Cortex-A76", MaxMHz: mhz(2400)},
	}}
	sameBin := cpu.Info{Clusters: []cpu.Cluster{
		{CPUs: []int{4, 5}, Core: "Cortex-A76", MaxMHz: mhz(2400)},
		{CPUs: []int{0, 1, 2, 3}, Core: "Cortex-A55", MaxMHz: mhz(1800)},
		{CPUs: []int{6, 7}, Core: "Cortex-A76", MaxMHz: mhz(2400)},
	}}
	unknown := cpu.Info{Clusters: []cpu.Cluster{{CPUs: []int{0, 1}}, {CPUs: []int{2, 3}}}}
	tests := []struct {
		name   string
		info   cpu.Info
		usable []int
		want   [][]int // CPUs, then candidates, per target
	}{
		{"binned clusters stay apart", rk3588, []int{0, 1, 2, 3, 4, 5, 6, 7}, [][]int{{0, 1, 2, 3}, {0, 1, 2, 3}, {4, 5}, {4, 5}, {6, 7}, {6, 7}}},
		{"same core and clock merge", sameBin, []int{0, 1, 2, 3, 4, 5, 6, 7}, [][]int{{0, 1, 2, 3}, {0, 1, 2, 3}, {4, 5, 6, 7}, {4, 5, 6, 7}}},
		{"offline CPUs are no candidates", rk3588, []int{0, 1, 2, 3, 5, 6, 7}, [][]int{{0, 1, 2, 3}, {0, 1, 2, 3}, {4, 5}, {5}, {6, 7}, {6, 7}}},
		{"unknown cores never merge", unknown, []int{0, 1, 2, 3}, [][]int{{0, 1}, {0, 1}, {2, 3}, {2, 3}}},
		{"no clusters", cpu.Info{}, []int{0, 1}, [][]int{{0, 1}, {0, 1}}},
	}
	for _, tt := range tests {
		var got [][]int
		for _, tg := range Targets(tt.info, tt.usable) {
			got = append(got, tg.CPUs, tg.Candidates)
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
	if l := Targets(rk3588, []int{4, 5})[1].Label(); l != "cpu4-5 (Cortex-A76)" {
		t.Errorf("label %q", l)
	}
}

func TestNewPlanQuick(t *testing.T) {
	p := NewPlan(Options{Quick: true})
	if !p.Quick || p.SevenZipDictLog2 != 18 || p.SevenZipMultiRuns != 1 || p.OpenSSLSeconds != 1 || p.Sustained != QuickSustained {
		t.Errorf("quick plan %+v", p)
	}
	s := NewPlan(Options{})
	if s.Quick || s.SevenZipDictLog2 != 0 || s.SevenZipPasses != 0 || s.SevenZipMultiRuns != 3 || len(s.Ciphers) != 3 || s.Sustained != DefaultSustained {
		t.Errorf("standard plan %+v", s)
	}
}

func TestIsMemoryDevfreq(t *testing.T) {
	for name, want := range map[string]bool{
		"dmc": true, "ff9a0000.gpu": false, "1c62000.dram-controller": true, "soc:bus_noc": true,
		"fdab0000.npu": false, "exynos-bus": true, "ddr_devfreq": true,
	} {
		if isMemoryDevfreq(name) != want {
			t.Errorf("isMemoryDevfreq(%q) = %v", name, !want)
		}
	}
}

func TestSustainedDrift(t *testing.T) {
	mk := func(runs ...float64) []result.Phase {
		f := result.SevenZipFigures{}
		for _, v := range runs {
			f.Runs = append(f.Runs, result.SevenZipRun{TotMIPS: f64(v)})
		}
		f.TotMIPS, f.DriftPct = result.MeanAndDrift(f.Runs)
		return []result.Phase{phaseWith(t, result.PhaseSustained, []int{0, 1}, f)}
	}
	if fs := check.SustainedDrift(mk(8488, 8000, 7208)); len(fs) != 1 || fs[0].ID != "sustained_drift" || fs[0].Evidence[0] != "sustained runs: 8488, 8000, 7208 MIPS" {
		t.Errorf("15%% drop: %+v", fs)
	}
	if fs := check.SustainedDrift(mk(8000, 7700)); len(fs) != 0 {
		t.Errorf("3.75%% drop is within noise: %+v", fs)
	}
	if fs := check.SustainedDrift(nil); len(fs) != 0 {
		t.Errorf("no phase: %+v", fs)
	}
}
