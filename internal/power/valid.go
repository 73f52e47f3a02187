package power

import (
	"fmt"
	"math"
)

// MaxWatts is the largest power reading boardbench accepts from any
// source: 1 MW, far above any board or lab bench, far below the values
// (1e308, +Inf) a broken or hostile meter can send.
const MaxWatts = 1e6

// MaxEnergyWh is the largest energy counter boardbench accepts: 1 GWh,
// a meter counting MaxWatts for a thousand hours.
const MaxEnergyWh = 1e9

// checkWatts says why w is not a power reading: not a number, infinite,
// negative, or above MaxWatts; nil for a plausible one. kind names the
// source in the message.
func checkWatts(kind string, w float64) error {
	switch {
	case math.IsNaN(w):
		return fmt.Errorf("%s: power is not a number (NaN); reading left out", kind)
	case w < 0:
		return fmt.Errorf("%s: negative power %g W; reading left out", kind, w)
	case w > MaxWatts: // +Inf included
		return fmt.Errorf("%s: implausible power %g W (above %g W); reading left out", kind, w, float64(MaxWatts))
	}
	return nil
}

// checkEnergy says why wh is not an energy counter reading, like
// checkWatts.
func checkEnergy(kind string, wh float64) error {
	if math.IsNaN(wh) || wh < 0 || wh > MaxEnergyWh {
		return fmt.Errorf("%s: implausible energy counter %g Wh (want 0 to %g Wh); reading left out", kind, wh, float64(MaxEnergyWh))
	}
	return nil
}

// checked returns r when its values are plausible, else the error: every
// source's parser ends with it, so a reading no meter can give is a
// missing reading with its reason, never a figure.
func checked(kind string, r Reading) (Reading, error) {
	if r.W != nil {
		if err := checkWatts(kind, *r.W); err != nil {
			return Reading{}, err
		}
	}
	if r.EnergyWh != nil {
		if err := checkEnergy(kind, *r.EnergyWh); err != nil {
			return Reading{}, err
		}
	}
	return r, nil
}

// guard is the meter's own check of every reading it is given, whatever
// its source: an implausible value turns the reading into a failed one
// (Err says why), so that no source, present or future, can put NaN, ±Inf
// or negative watts into samples, spans or results.
func guard(kind string, r Reading) Reading {
	if r.Err != "" {
		return Reading{Time: r.Time, Err: r.Err}
	}
	if _, err := checked(kind, r); err != nil {
		return Reading{Time: r.Time, Err: err.Error()}
	}
	return r
}
