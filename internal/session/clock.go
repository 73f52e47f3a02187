package session

import (
	"context"

	"boardbench/internal/tune"
)

// PinClock pins every cpufreq policy at the offered clock nearest below
// mhz (tune.PlanClock) through the session's tuning guard (Tune with
// opts), which restores the limits at the end on every exit path and at
// once on a signal; the pins are listed in the result's tuning.changed.
// It is how a measuring command runs at a fixed clock (net --clock,
// storage --clock); mhz 0 does nothing. tune.ErrNoClocks says there is no
// clock to pin: commands refuse that before measuring (CheckClock).
func (s *Session) PinClock(ctx context.Context, mhz int, opts ...tune.Option) error {
	if mhz <= 0 {
		return nil
	}
	pins, err := tune.PlanClock(s.cfg.Host, mhz)
	if err != nil {
		return err
	}
	g, _, err := s.Tune(ctx, opts...)
	if err != nil {
		return err
	}
	if err := g.PinClocks(pins); err != nil {
		return err
	}
	for _, p := range pins {
		s.res.Tuning.Changed = append(s.res.Tuning.Changed, p.Describe())
	}
	s.Save()
	return nil
}
