package power

import (
	"context"
	"fmt"
	"io"

	"boardbench/internal/host"
	"boardbench/internal/inventory"
)

// Start opens the source spec names (see Open), starts reading it and
// waits for its first reading; nil without a source. The meter reads until
// Stop, independently of ctx's cancellation (a run that is interrupted
// still records its power to the end). A source given explicitly that
// cannot be used or whose first reading fails is an error; one chosen
// automatically is then left out, with one line on warn (nil: none).
func Start(ctx context.Context, h *host.Host, in *inventory.Info, spec Spec, warn io.Writer) (*Meter, error) {
	return StartClock(ctx, h, in, spec, nil, warn)
}

// StartClock is Start with the meter's clock (nil: the system's clock).
func StartClock(ctx context.Context, h *host.Host, in *inventory.Info, spec Spec, clock Clock, warn io.Writer) (*Meter, error) {
	src, err := Open(ctx, h, in, spec)
	if err != nil {
		return nil, err
	}
	if src == nil {
		return nil, nil
	}
	m := NewMeterClock(src, clock)
	m.Start(context.WithoutCancel(ctx))
	if err := m.WaitFirst(ctx, FirstReadingTimeout); err != nil {
		m.Stop()
		if spec.IsAuto() {
			if warn != nil {
				fmt.Fprintf(warn, "boardbench: not reading power from %s: %v\n", src.Info().Spec, err)
			}
			return nil, nil
		}
		return nil, fmt.Errorf("power source %s: %v", src.Info().Spec, err)
	}
	return m, nil
}
