package session

import (
	"context"

	"boardbench/internal/tune"
)

// PinClock pins every cpufreq policy of pins (the plan tune.CheckClock
// made before measuring: the offered clock nearest below the one asked
// for) through the session's tuning guard (Tune with opts), which
// restores the limits at the end on every exit path and at once on a
// signal; the pins are listed in the result's tuning.changed. It is how a
// measuring command runs at a fixed clock (net --clock, storage --clock);
// no pins do nothing.
func (s *Session) PinClock(ctx context.Context, pins []tune.ClockPin, opts ...tune.Option) error {
	if len(pins) == 0 {
		return nil
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
