package thermal

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"boardbench/internal/result"
)

func u32(v uint32) *uint32 { return &v }

// heatPhase builds a heating phase sampled every 10 s for 1500 s; each
// function gives a sample's values at t seconds (nil: not sampled).
func heatPhase(clock, fw func(t int) *float64, word func(t int) *uint32, after *uint32) *result.Phase {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var s []result.Sample
	for t := 0; t <= 1500; t += 10 {
		x := result.Sample{Time: start.Add(time.Duration(t) * time.Second), FirmwareMHz: fw(t), Throttled: word(t)}
		if c := clock(t); c != nil {
			x.ClockMHz = []*float64{c}
		}
		s = append(s, x)
	}
	return &result.Phase{Name: result.PhaseThermalHeat, StartedAt: start, Evidence: result.Evidence{Samples: s, ThrottledAfter: after}}
}

func TestAnalyzeFirmwareThrottling(t *testing.T) {
	none := func(int) *float64 { return nil }
	noWord := func(int) *uint32 { return nil }
	steady := func(int) *float64 { return f(1000) }
	tests := []struct {
		name        string
		phase       *result.Phase
		wantAt      *float64
		evidenceHas string
		spans       []result.ThrottleSpan
		coldFW      *float64
		sustainedFW *float64
		noteHas     string
	}{
		{
			// The Zero 2 W seed: cpufreq stays at 1000 MHz while the firmware
			// clock falls after 15 minutes (soft temperature limit).
			name: "hidden throttling: firmware clock below cpufreq's",
			phase: heatPhase(steady,
				func(t int) *float64 {
					if t >= 900 && t < 1200 {
						return f(700)
					}
					return f(1000)
				},
				func(t int) *uint32 {
					switch {
					case t >= 900 && t < 1200:
						return u32(0x80008)
					case t >= 1200:
						return u32(0x80000)
					}
					return u32(0)
				}, u32(0x80000)),
			wantAt: f(900), evidenceHas: "while cpufreq reported 1000 MHz (hidden throttling)",
			spans: []result.ThrottleSpan{{StartS: 900, EndS: f(1200), Signals: []string{"firmware clock", "get_throttled"}, LowestFirmwareMHz: f(700)}},
			// The last quarter (1125-1500 s) holds 7 samples at 700 MHz and 31 at 1000.
			coldFW: f(1000), sustainedFW: f(945),
		},
		{
			name: "get_throttled alone, to the end",
			phase: heatPhase(none, none, func(t int) *uint32 {
				if t >= 300 {
					return u32(0x40004)
				}
				return u32(0)
			}, u32(0x40004)),
			wantAt: f(300), evidenceHas: "get_throttled 0x40004: currently throttled",
			spans: []result.ThrottleSpan{{StartS: 300, Signals: []string{"get_throttled"}}},
		},
		{
			name:   "no throttling",
			phase:  heatPhase(steady, steady, func(int) *uint32 { return u32(0) }, u32(0)),
			spans:  []result.ThrottleSpan{},
			coldFW: f(1000), sustainedFW: f(1000),
			noteHas: "no throttling seen",
		},
		{
			name:    "flags after the load only: time unknown",
			phase:   heatPhase(none, none, noWord, u32(0x40000|0x4)),
			spans:   []result.ThrottleSpan{},
			noteHas: "no sample (clock or get_throttled) shows when",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Analyze(tt.phase, nil)
			if !eqPtr(r.TimeToThrottleS, tt.wantAt) {
				t.Errorf("time to throttle %v, want %v", fmtPtr(r.TimeToThrottleS), fmtPtr(tt.wantAt))
			}
			if !strings.Contains(r.ThrottleEvidence, tt.evidenceHas) {
				t.Errorf("evidence %q lacks %q", r.ThrottleEvidence, tt.evidenceHas)
			}
			if !eqPtr(r.ColdFirmwareMHz, tt.coldFW) || !eqPtr(r.SustainedFirmwareMHz, tt.sustainedFW) {
				t.Errorf("firmware clocks %v → %v", fmtPtr(r.ColdFirmwareMHz), fmtPtr(r.SustainedFirmwareMHz))
			}
			if len(r.ThrottleSpans) != len(tt.spans) || r.ThrottleSpans == nil {
				t.Fatalf("spans %+v, want %+v", r.ThrottleSpans, tt.spans)
			}
			for i, want := range tt.spans {
				got := r.ThrottleSpans[i]
				if got.StartS != want.StartS || !eqPtr(got.EndS, want.EndS) || strings.Join(got.Signals, ",") != strings.Join(want.Signals, ",") ||
					!eqPtr(got.LowestFirmwareMHz, want.LowestFirmwareMHz) || !eqPtr(got.LowestClockMHz, want.LowestClockMHz) {
					t.Errorf("span %d = %+v, want %+v", i, got, want)
				}
			}
			if tt.noteHas != "" && !strings.Contains(strings.Join(r.Notes, "\n"), tt.noteHas) {
				t.Errorf("notes %q lack %q", r.Notes, tt.noteHas)
			}
		})
	}
}

func eqPtr(a, b *float64) bool { return a == nil && b == nil || a != nil && b != nil && *a == *b }

func fmtPtr(v *float64) string {
	if v == nil {
		return "nil"
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}
