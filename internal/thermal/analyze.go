package thermal

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"boardbench/internal/result"
)

// ThrottleDropPct is how far a cluster's clock must fall below its clock at
// the start of the load to count as throttling.
const ThrottleDropPct = 5.0

// Analyze computes the thermal figures from the heating and cooling phases
// (either may be nil). Unknown figures stay nil with a note.
func Analyze(heat, cool *result.Phase) *result.ThermalResult {
	r := &result.ThermalResult{ColdClockMHz: []*float64{}, SustainedClockMHz: []*float64{}, ThrottleSpans: []result.ThrottleSpan{}, Notes: []string{}}
	if heat != nil {
		analyzeHeat(r, heat)
	}
	if cool != nil {
		analyzeCool(r, cool)
		r.CoolPowerW = cool.PowerW
	}
	return r
}

func analyzeHeat(r *result.ThermalResult, p *result.Phase) {
	s := p.Samples
	r.HeatPowerW = p.PowerW
	temps := tempSeries(s)
	if len(temps.v) > 0 {
		r.StartTempC = round(temps.v[0], 1)
		peak := temps.v[0]
		for _, v := range temps.v {
			peak = math.Max(peak, v)
		}
		r.PeakTempC = round(peak, 1)
	}
	// Clocks per monitored policy: at the start and over the last quarter.
	n := 0
	for _, x := range s {
		n = max(n, len(x.ClockMHz))
	}
	start := p.StartedAt
	var throttleAt *float64
	colds := make([]*float64, n)
	for c := 0; c < n; c++ {
		var ts, vs []float64
		for _, x := range s {
			if c < len(x.ClockMHz) && x.ClockMHz[c] != nil {
				ts = append(ts, x.Time.Sub(start).Seconds())
				vs = append(vs, *x.ClockMHz[c])
			}
		}
		if len(vs) == 0 {
			r.ColdClockMHz = append(r.ColdClockMHz, nil)
			r.SustainedClockMHz = append(r.SustainedClockMHz, nil)
			continue
		}
		cold, sustained := coldAndSustained(ts, vs)
		colds[c] = &cold
		r.ColdClockMHz = append(r.ColdClockMHz, round(cold, 0))
		r.SustainedClockMHz = append(r.SustainedClockMHz, round(sustained, 0))
		for i, v := range vs {
			if v < cold*(1-ThrottleDropPct/100) {
				if throttleAt == nil || ts[i] < *throttleAt {
					t := ts[i]
					throttleAt = &t
					r.ThrottleEvidence = fmt.Sprintf("cluster %d's clock fell from %.0f to %.0f MHz", c, cold, v)
				}
				break
			}
		}
	}
	if n == 0 {
		r.Notes = append(r.Notes, "clock: no cpufreq clock was sampled, throttling is told by the firmware only")
	}
	// The Raspberry Pi firmware's clock and flags, sampled with every
	// sample where vcgencmd exists: they show throttling the kernel's
	// cpufreq clock does not (hidden throttling).
	r.ColdFirmwareMHz, r.SustainedFirmwareMHz = firmwareClocks(s, start)
	states := throttleState(s, start, colds, r.ColdFirmwareMHz)
	r.ThrottleSpans = spans(states)
	if at, ev := firmwareOnset(states, r.ColdFirmwareMHz); at != nil && (throttleAt == nil || *at < *throttleAt) {
		throttleAt, r.ThrottleEvidence = at, ev
	}
	if throttleAt != nil {
		r.TimeToThrottleS = round(*throttleAt, 0)
	} else if p.ThrottledAfter != nil && *p.ThrottledAfter&0x6 != 0 {
		r.ThrottleEvidence = fmt.Sprintf("firmware flags 0x%x after the load (time unknown)", *p.ThrottledAfter)
		r.Notes = append(r.Notes, "time to throttle: the firmware reports throttling after the load, but no sample (clock or get_throttled) shows when")
	} else {
		r.Notes = append(r.Notes, "time to throttle: no throttling seen")
	}
	// Scores: the first 7-Zip run against the last complete one.
	var f result.ThermalHeatFigures
	if err := decodeFigures(p, &f); err == nil && !f.Scored && strings.HasPrefix(f.Load, result.ThermalLoadStressNG) {
		r.Notes = append(r.Notes, "score under heat: not measured, the load (stress-ng) gives no score comparable across runs; use the default 7-Zip load for one")
	} else if err == nil {
		var scores []float64
		for _, run := range f.Runs {
			if run.MIPS != nil {
				scores = append(scores, *run.MIPS)
			}
		}
		if len(scores) > 0 {
			r.ColdMIPS = round(scores[0], 0)
		}
		if len(scores) > 1 {
			r.HotMIPS = round(scores[len(scores)-1], 0)
			r.HotVsColdPct = round((scores[len(scores)-1]/scores[0]-1)*100, 1)
		} else {
			r.Notes = append(r.Notes, "score under heat: fewer than two complete benchmark runs")
		}
	}
	settle(r, temps)
}

// settle sets SettleTempC from the last minute of the heating series.
func settle(r *result.ThermalResult, temps series) {
	if len(temps.t) < 3 || temps.t[len(temps.t)-1]-temps.t[0] < 60 {
		r.Notes = append(r.Notes, "settle temperature: the load ran less than a minute")
		return
	}
	end := temps.t[len(temps.t)-1]
	var ts, vs []float64
	for i, t := range temps.t {
		if t >= end-60 {
			ts, vs = append(ts, t), append(vs, temps.v[i])
		}
	}
	slope, mean := regress(ts, vs)
	perMin := slope * 60
	if perMin > result.SettleSlopeCPerMin {
		r.Notes = append(r.Notes, fmt.Sprintf("settle temperature: still rising at %.1f °C/min when the load stopped", perMin))
		return
	}
	r.SettleTempC = round(mean, 1)
}

func analyzeCool(r *result.ThermalResult, p *result.Phase) {
	temps := tempSeries(p.Samples)
	f, err := FitCooling(temps.t, temps.v)
	if err != nil {
		r.Notes = append(r.Notes, "cooling time constant: "+err.Error())
		return
	}
	r.CoolingTimeConstantS = round(f.TauS, 0)
	r.CoolingAsymptoteC = round(f.AsymptoteC, 1)
	r.CoolingFitRMSC = round(f.RMSC, 2)
}

// series is a time series in seconds from the first sample's phase start.
type series struct{ t, v []float64 }

func tempSeries(s []result.Sample) series {
	var out series
	if len(s) == 0 {
		return out
	}
	t0 := s[0].Time
	for _, x := range s {
		if x.TempC != nil {
			out.t = append(out.t, x.Time.Sub(t0).Seconds())
			out.v = append(out.v, *x.TempC)
		}
	}
	return out
}

// regress returns the least-squares slope and the mean of y.
func regress(x, y []float64) (slope, mean float64) {
	n := float64(len(x))
	var sx, sy, sxx, sxy float64
	for i := range x {
		sx += x[i]
		sy += y[i]
		sxx += x[i] * x[i]
		sxy += x[i] * y[i]
	}
	mean = sy / n
	den := n*sxx - sx*sx
	if den == 0 {
		return 0, mean
	}
	return (n*sxy - sx*sy) / den, mean
}

func round(v float64, digits int) *float64 {
	p := math.Pow(10, float64(digits))
	x := math.Round(v*p) / p
	return &x
}

func decodeFigures(p *result.Phase, v any) error {
	if len(p.Figures) == 0 {
		return fmt.Errorf("no figures")
	}
	return json.Unmarshal(p.Figures, v)
}

// Summarize is the summary of a thermal test: the usual headline figures
// (empty here) and the thermal figures of its phases.
func Summarize(phases []result.Phase) result.Summary {
	s := result.BuildSummary(phases)
	var heat, cool *result.Phase
	for i := range phases {
		if phases[i].Status == result.PhaseSkipped {
			continue
		}
		switch phases[i].Name {
		case result.PhaseThermalHeat:
			heat = &phases[i]
		case result.PhaseThermalCool:
			cool = &phases[i]
		}
	}
	if heat != nil || cool != nil {
		s.ThermalSummary = &result.ThermalSummary{Thermal: Analyze(heat, cool)}
	}
	return s
}
