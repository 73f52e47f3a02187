package session

import (
	"context"
	"fmt"
	"math"

	"boardbench/internal/power"
	"boardbench/internal/result"
)

// startPower opens and starts the power source of cfg.Power and waits for
// its first reading; nil without a source. A source that cannot be used
// here, or whose first reading fails, is an error before anything is
// measured.
func startPower(ctx context.Context, cfg Config) (*power.Meter, context.CancelFunc, error) {
	src, err := power.Open(ctx, cfg.Host, cfg.Info, cfg.Power.Spec)
	if err != nil {
		return nil, nil, err
	}
	if src == nil {
		return nil, nil, nil
	}
	m := power.NewMeter(src)
	mctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	m.Start(mctx)
	if err := m.WaitFirst(ctx, power.FirstReadingTimeout); err != nil {
		cancel()
		<-m.Done()
		if cfg.Power.Spec.IsAuto() {
			// A sensor found on its own that does not answer is no reason
			// to stop: go on without power.
			if cfg.Warn != nil {
				fmt.Fprintf(cfg.Warn, "boardbench: not reading power from %s: %v\n", src.Info().Spec, err)
			}
			return nil, nil, nil
		}
		return nil, nil, fmt.Errorf("power source %s: %v", src.Info().Spec, err)
	}
	return m, cancel, nil
}

// powerResult describes the meter for the result.
func powerResult(m *power.Meter) *result.Power {
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
	m := s.mon.Config().Meter
	if s.baselineDone || m == nil || s.cfg.Power.IdleBaseline <= 0 || m.Info().Measures == power.MeasuresLimit || ctx.Err() != nil {
		s.baselineDone = true
		return
	}
	s.baselineDone = true
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
	if s.powerStop == nil {
		return
	}
	s.powerStop()
	m := s.mon.Config().Meter
	<-m.Done()
	st := m.Stats()
	s.res.Power.Readings, s.res.Power.Missing, s.res.Power.Errors = st.Readings, st.Missing, st.Errors
	s.powerStop = nil
}
