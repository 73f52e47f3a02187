package check

import (
	"strings"
	"testing"

	"boardbench/internal/finding"
	"boardbench/internal/monitor"
	"boardbench/internal/result"
)

func f64(v float64) *float64 { return &v }
func u32(v uint32) *uint32   { return &v }
func u64(v uint64) *uint64   { return &v }

// samples builds a series with the given total %cpu, %sys and %iowait.
func samples(cpu, sys, io float64, n int) []result.Sample {
	out := make([]result.Sample, n)
	for i := range out {
		out[i] = result.Sample{CPUPct: f64(cpu), SysPct: f64(sys), IowaitPct: f64(io)}
	}
	return out
}

func phase(name string, cpus []int, mod func(*result.Phase)) result.Phase {
	p := result.Phase{Name: name, CPUs: cpus, Status: result.PhaseOK}
	if mod != nil {
		mod(&p)
	}
	return p
}

func ids(fs []finding.Finding) string {
	var s []string
	for _, f := range fs {
		s = append(s, f.ID+":"+string(f.Severity))
	}
	return strings.Join(s, ",")
}

func TestRules(t *testing.T) {
	rock5b := []result.Policy{{Label: "cpu0-3", ID: 0, CPUs: []int{0, 1, 2, 3}}, {Label: "cpu4-5", ID: 4, CPUs: []int{4, 5}}}
	cases := []struct {
		name   string
		phases []result.Phase
		runs   []float64
		facts  Facts
		want   string
	}{
		{
			name:   "clean run",
			phases: []result.Phase{phase("7zip-single", []int{4}, func(p *result.Phase) { p.Samples = samples(12.6, 0.3, 0, 4) })},
			facts:  Facts{NCPU: 8, Governors: map[int]string{0: "performance"}},
			want:   "",
		},
		{
			name: "background activity in single-threaded phase",
			phases: []result.Phase{phase("openssl", []int{0}, func(p *result.Phase) {
				p.Samples = samples(30, 2, 0, 5) // 4 CPUs: one busy CPU is 25%
			})},
			facts: Facts{NCPU: 4},
			want:  "background_activity:warning",
		},
		{
			name: "iowait in single-threaded phase",
			phases: []result.Phase{phase("7zip-single", []int{0}, func(p *result.Phase) {
				p.Samples = samples(26, 1, 6, 3)
			})},
			facts: Facts{NCPU: 4},
			want:  "background_activity:warning",
		},
		{
			name:   "swapping a little",
			phases: []result.Phase{phase("7zip-multi", []int{0, 1, 2, 3}, func(p *result.Phase) { p.SwapIn, p.SwapOut = u64(10), u64(50) })},
			facts:  Facts{NCPU: 4},
			want:   "swapping:warning",
		},
		{
			name:   "swapping a lot invalidates",
			phases: []result.Phase{phase("7zip-multi", []int{0, 1, 2, 3}, func(p *result.Phase) { p.SwapIn, p.SwapOut = u64(4000), u64(9000) })},
			facts:  Facts{NCPU: 4},
			want:   "swapping:invalidates",
		},
		{
			name: "OOM kill from the kernel log",
			phases: []result.Phase{phase("7zip-multi", []int{0, 1, 2, 3}, func(p *result.Phase) {
				p.Events = monitor.ResultEvents(monitor.Events([]string{"[ 812.123] Out of memory: Killed process 4242 (7zz) total-vm:812345kB"}))
			})},
			facts: Facts{NCPU: 4},
			want:  "oom_kill:invalidates",
		},
		{
			name: "under-voltage from kernel log",
			phases: []result.Phase{phase("7zip-multi", []int{0, 1, 2, 3}, func(p *result.Phase) {
				p.Events = monitor.ResultEvents(monitor.Events([]string{"[  301.4] hwmon hwmon1: Undervoltage detected!"}))
			})},
			facts: Facts{NCPU: 4},
			want:  "under_voltage:invalidates",
		},
		{
			name: "under-voltage from firmware flags during phase, also throttling",
			phases: []result.Phase{phase("7zip-multi", []int{0, 1, 2, 3}, func(p *result.Phase) {
				p.ThrottledBefore, p.ThrottledAfter = u32(0), u32(0x50005)
			})},
			facts: Facts{NCPU: 4},
			want:  "under_voltage:invalidates,throttling:warning",
		},
		{
			name: "under-voltage only before the run",
			phases: []result.Phase{phase("7zip-multi", []int{0, 1, 2, 3}, func(p *result.Phase) {
				p.ThrottledBefore, p.ThrottledAfter = u32(0x50000), u32(0x50000)
			})},
			facts: Facts{NCPU: 4},
			want:  "under_voltage_before:warning",
		},
		{
			name: "CPU shut down (real kernel line) and offline at the end",
			phases: []result.Phase{phase("7zip-multi", []int{0, 1, 2, 3}, func(p *result.Phase) {
				p.Events = monitor.ResultEvents(monitor.Events([]string{"[  566.894532] c0 1098 (kworker/u8:2) CPU2: shutdown"}))
			})},
			facts: Facts{NCPU: 4, OnlineBefore: []int{0, 1, 2, 3}, OnlineAfter: []int{0, 1, 3}},
			want:  "cpu_offline:invalidates",
		},
		{
			name: "throttling from time_in_state on the busy policy only",
			phases: []result.Phase{
				phase("7zip-single", []int{4}, func(p *result.Phase) {
					p.TimeInState = []result.PolicyTime{
						{Policy: 0, TopMHz: 1800, TotalS: 20, BelowTopS: 20, ByMHz: map[string]float64{"408": 20}}, // idle little cluster
						{Policy: 4, TopMHz: 2400, TotalS: 20, BelowTopS: 6, ByMHz: map[string]float64{"2400": 14, "2016": 6}},
					}
				}),
			},
			facts: Facts{NCPU: 8},
			want:  "throttling:warning",
		},
		{
			name: "idle policy below top is not throttling",
			phases: []result.Phase{
				phase("7zip-single", []int{4}, func(p *result.Phase) {
					p.TimeInState = []result.PolicyTime{{Policy: 0, TopMHz: 1800, TotalS: 20, BelowTopS: 20}}
				}),
			},
			facts: Facts{NCPU: 8},
			want:  "",
		},
		{
			name:  "falling 7-Zip scores",
			runs:  []float64{8010, 7700, 7400},
			facts: Facts{NCPU: 4},
			want:  "falling_scores:warning",
		},
		{
			name: "clock below max and mismatching the kernel",
			facts: Facts{NCPU: 4, Clusters: []Cluster{{
				Label: "cpu0-3", Phase: "clock", AdvertisedMaxMHz: f64(1800), MeasuredMHz: f64(1400), ReportedMHz: f64(1800),
			}}},
			want: "clock_below_max:warning,clock_mismatch:warning",
		},
		{
			name:  "governor not tuned",
			facts: Facts{NCPU: 4, Governors: map[int]string{0: "ondemand"}},
			want:  "governor:warning",
		},
		{
			name:  "governor tuned by the run",
			facts: Facts{NCPU: 4, Governors: map[int]string{0: "ondemand"}, Tuned: true},
			want:  "",
		},
		{
			name:  "7-Zip version not comparable",
			facts: Facts{NCPU: 4, SevenZip: &ToolComparability{Version: "23.01", Reason: "not 16.02"}},
			want:  "sevenzip_version:info",
		},
		{
			name:  "zswap with zram",
			facts: Facts{NCPU: 4, ZswapEnabled: true, ZramSwapActive: true},
			want:  "zswap_with_zram:warning",
		},
		{
			name:  "Pi 3B+ soft limit",
			facts: Facts{NCPU: 4, RPiModel: "Raspberry Pi 3 Model B+", TempSoftLimit: func() *int { v := 60; return &v }()},
			want:  "rpi_temp_soft_limit:warning",
		},
		{
			name: "near trip point",
			phases: []result.Phase{phase("7zip-multi", []int{0, 1, 2, 3}, func(p *result.Phase) {
				p.Samples = []result.Sample{{TempC: f64(60)}, {TempC: f64(81.5)}}
			})},
			facts: Facts{NCPU: 4, Trips: []Trip{{Type: "passive", C: 85}, {Type: "critical", C: 115}}},
			want:  "near_trip_point:warning",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := &result.Result{Phases: c.phases}
			r.Monitor.Policies = rock5b
			r.Summary.SevenZipMultiRuns = c.runs
			got := ids(Run(r, c.facts))
			if got != c.want {
				t.Errorf("findings = %q, want %q", got, c.want)
			}
		})
	}
}

func TestVerdict(t *testing.T) {
	cases := []struct {
		fs    []finding.Finding
		valid bool
		pre   string
	}{
		{nil, true, "valid: "},
		{[]finding.Finding{{ID: "governor", Severity: finding.Warning}}, true, "valid with warnings: governor"},
		{[]finding.Finding{{ID: "swapping", Severity: finding.Invalidates}, {ID: "governor", Severity: finding.Warning}}, false, "NOT VALID: swapping"},
	}
	for _, c := range cases {
		valid, line := Verdict(c.fs)
		if valid != c.valid || !strings.HasPrefix(line, c.pre) {
			t.Errorf("Verdict = %v %q, want %v %q…", valid, line, c.valid, c.pre)
		}
	}
}
