package tune

import (
	"errors"
	"fmt"

	"boardbench/internal/host"
)

// ErrNoClocks is returned by PlanClock when no cpufreq policy lists the
// clocks it offers: there is no clock to pin.
const ErrNoClocks = sentinel("no cpufreq policy lists the clocks it offers")

// ClockPin is the clock one cpufreq policy is pinned at for a run with a
// fixed clock (net --clock, storage --clock).
type ClockPin struct {
	Policy int
	// KHz is the offered clock chosen for the requested one.
	KHz int64
}

// PlanClock chooses, for every cpufreq policy of h, the clock to pin for
// mhz: the highest clock it offers at or below mhz, else (mhz is below
// all of them) its lowest. It returns ErrNoClocks when no policy lists
// its clocks (no cpufreq, or a driver without a frequency table).
func PlanClock(h *host.Host, mhz int) ([]ClockPin, error) {
	if mhz <= 0 {
		return nil, fmt.Errorf("invalid clock %d MHz", mhz)
	}
	want := int64(mhz) * 1000
	var pins []ClockPin
	for _, pol := range sortedKeys(Policies(h)) {
		offered, err := AvailableKHz(h, pol)
		if err != nil || len(offered) == 0 {
			continue
		}
		// offered is highest first.
		pick := offered[len(offered)-1]
		for _, khz := range offered {
			if khz <= want {
				pick = khz
				break
			}
		}
		pins = append(pins, ClockPin{Policy: pol, KHz: pick})
	}
	if len(pins) == 0 {
		return nil, ErrNoClocks
	}
	return pins, nil
}

// PinClocks pins every policy of pins through the Guard, which restores
// them at the end; it stops at the first failure.
func (g *Guard) PinClocks(pins []ClockPin) error {
	for _, p := range pins {
		if err := g.Pin(p.Policy, p.KHz); err != nil {
			return fmt.Errorf("pinning policy%d at %d MHz: %w", p.Policy, p.KHz/1000, err)
		}
	}
	return nil
}

// Describe says what a pin does, for the result's tuning.changed.
func (p ClockPin) Describe() string {
	return fmt.Sprintf("policy%d pinned at %d MHz (scaling_min_freq = scaling_max_freq = %d)", p.Policy, p.KHz/1000, p.KHz)
}

// CheckClock says before measuring whether a run can be pinned at mhz
// and plans it: the pins (PlanClock; none for mhz 0) when it can, else one
// sentence for a refusal (no cpufreq clocks to pin, or not root). flag
// names the option ("--clock"). The pins are what the session pins
// (session.PinClock), so the clock is planned once.
func CheckClock(h *host.Host, flag string, mhz int, isRoot bool) ([]ClockPin, error) {
	if mhz <= 0 {
		return nil, nil
	}
	pins, err := PlanClock(h, mhz)
	if err != nil {
		if errors.Is(err, ErrNoClocks) {
			return nil, fmt.Errorf("%s %d: no cpufreq here (%v), so the clocks cannot be pinned; run without %s to measure at the clock the board runs", flag, mhz, err, flag)
		}
		return nil, fmt.Errorf("%s %d: %v", flag, mhz, err)
	}
	if !isRoot {
		return nil, fmt.Errorf("%s pins the cpufreq clocks, which needs root: run it with sudo", flag)
	}
	return pins, nil
}
