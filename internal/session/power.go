package session

import (
	"context"
	"fmt"
	"math"

	"boardbench/internal/power"
	"boardbench/internal/result"
)

// PowerResult describes a meter for the result.
func PowerResult(m *power.Meter) *result.Power {
	inf := m.Info()
	return &result.Power{
		Source: inf.Spec, Kind: inf.Kind, Measures: inf.Measures, Description: inf.Description,
		Reason: inf.Reason, EnergyCounter: inf.EnergyCounter, IntervalS: inf.Interval.Seconds(),
		LimitW: inf.LimitW, Notes: inf.Notes,
	}
}

// idleBaseline measures the idle power before the first phase, once, when
// there is a meter measuring something and a baseline duration.
func (s *Session) idleBaseline(ctx context.Context) {
	s.baselineDone = true
	m := s.mon.Config().Meter
	if m == nil || s.cfg.Power.IdleBaseline <= 0 || m.Info().Measures == power.MeasuresLimit || ctx.Err() != nil {
		return
	}
	if s.cfg.Warn != nil {
		fmt.Fprintf(s.cfg.Warn, "boardbench: measuring idle power for %s (--idle-baseline)\n", s.cfg.Power.IdleBaseline)
	}
	sp := m.Baseline(ctx, s.cfg.Power.IdleBaseline)
	ps := &result.PowerSpan{StartedAt: sp.From.UTC(), DurationS: math.Round(sp.DurationS()*100) / 100,
		Basis: sp.Basis, Readings: sp.Readings, Missing: sp.Missing, Note: sp.Note()}
	if sp.PowerW != nil {
		w := math.Round(*sp.PowerW*1000) / 1000
		ps.PowerW = &w
	}
	if sp.EnergyWh != nil {
		e := math.Round(*sp.EnergyWh*1e6) / 1e6
		ps.EnergyWh = &e
	}
	s.res.Power.Idle = ps
	s.Save()
}

// stopPower stops the meter and records its counts.
func (s *Session) stopPower() {
	m := s.mon.Config().Meter
	if m == nil || s.res.Power == nil {
		return
	}
	m.Stop()
	st := m.Stats()
	s.res.Power.Readings, s.res.Power.Missing, s.res.Power.Errors = st.Readings, st.Missing, st.Errors
}
