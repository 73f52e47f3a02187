package thermal

import (
	"encoding/json"
	"math"
	"testing"
	"time"

	"boardbench/internal/result"
)

func f(v float64) *float64 { return &v }

// TestAnalyze reads a recorded heating series (rising to a plateau of
// 80 °C, the clock capped from 1500 to 1200 MHz at 420 s, 7-Zip runs 2000
// then 1700 MIPS) and a cooling series with τ = 180 s.
func TestAnalyze(t *testing.T) {
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var heat []result.Sample
	for s := 0; s <= 900; s += 5 {
		clock := 1500.0
		if s >= 420 {
			clock = 1200
		}
		temp := 80 - 40*math.Exp(-float64(s)/120)
		heat = append(heat, result.Sample{Time: start.Add(time.Duration(s) * time.Second), TempC: f(math.Round(temp*10) / 10), ClockMHz: []*float64{f(clock)}})
	}
	figs, _ := json.Marshal(result.ThermalHeatFigures{Runs: []result.ThermalLoadRun{{MIPS: f(2000)}, {MIPS: f(1800)}, {MIPS: f(1700)}, {}}})
	hp := result.Phase{Name: result.PhaseThermalHeat, StartedAt: start, Figures: figs, Evidence: result.Evidence{Samples: heat, PowerW: f(6.5)}}
	cstart := start.Add(901 * time.Second)
	var cool []result.Sample
	for s := 0; s <= 900; s += 2 {
		cool = append(cool, result.Sample{Time: cstart.Add(time.Duration(s) * time.Second), TempC: f(math.Round((40+40*math.Exp(-float64(s)/180))*10) / 10)})
	}
	cp := result.Phase{Name: result.PhaseThermalCool, StartedAt: cstart, Evidence: result.Evidence{Samples: cool}}
	r := Analyze(&hp, &cp)
	check := func(name string, got *float64, want, tol float64) {
		t.Helper()
		if got == nil || math.Abs(*got-want) > tol {
			t.Errorf("%s = %v, want %v ±%v", name, got, want, tol)
		}
	}
	check("time to throttle", r.TimeToThrottleS, 420, 0)
	check("cold clock", r.ColdClockMHz[0], 1500, 0)
	check("sustained clock", r.SustainedClockMHz[0], 1200, 0)
	check("cold MIPS", r.ColdMIPS, 2000, 0)
	check("hot MIPS", r.HotMIPS, 1700, 0)
	check("hot vs cold", r.HotVsColdPct, -15, 0)
	check("start", r.StartTempC, 40, 0)
	check("settle", r.SettleTempC, 79.9, 0.2)
	check("cooling τ", r.CoolingTimeConstantS, 180, 4)
	check("cooling asymptote", r.CoolingAsymptoteC, 40, 0.3)
	check("heat power", r.HeatPowerW, 6.5, 0)
}
