package power

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// How a Span's power was found (Span.Basis).
const (
	// BasisCounter: the difference of the meter's energy counter.
	BasisCounter = "energy counter"
	// BasisReadings: the time-weighted mean of the power readings.
	BasisReadings = "readings"
)

// MinCounterSteps is how many steps of its resolution an energy counter
// must advance in a span to be used (a 5 % error at most); below that the
// readings are used.
const MinCounterSteps = 20

// Span is the power of an interval, such as a phase.
type Span struct {
	From, To time.Time
	// PowerW is the mean power; EnergyWh is PowerW over the whole span.
	// Both nil when the meter gave nothing usable in the span.
	PowerW   *float64
	EnergyWh *float64
	// Basis is BasisCounter or BasisReadings ("" without a figure).
	Basis string
	// ReadingsW is the mean of the readings alone, also when the counter
	// gave PowerW; nil without readings.
	ReadingsW *float64
	// Readings and Missing count the good and failed reads in the span.
	Readings, Missing int
	// CoveredS is how much of the span the readings cover (readings join
	// when no further apart than the meter's MaxGap).
	CoveredS float64
	// Errors are the distinct reasons of the missing reads.
	Errors []string
	// Around is true when no good reading fell inside the span and the
	// figure comes from the readings around it (a span shorter than the
	// meter's interval).
	Around bool
}

// DurationS is the span's length in seconds.
func (s Span) DurationS() float64 { return s.To.Sub(s.From).Seconds() }

// Note says what a reader of the span's figure should know: missing
// readings, a partial coverage, or why there is no figure; "" when there is
// nothing to say.
func (s Span) Note() string {
	var parts []string
	if s.Missing > 0 {
		p := fmt.Sprintf("%d of %d meter readings missing", s.Missing, s.Missing+s.Readings)
		if len(s.Errors) > 0 {
			p += " (" + strings.Join(s.Errors, "; ") + ")"
		}
		parts = append(parts, p)
	}
	d := s.DurationS()
	switch {
	case s.PowerW == nil:
		parts = append(parts, "no power figure: the meter gave no usable reading in this time")
	case s.Around:
		parts = append(parts, "no meter reading fell inside this time; the readings around it stand for it")
	case s.Basis == BasisReadings && d > 0 && s.CoveredS < 0.9*d:
		parts = append(parts, fmt.Sprintf("power readings cover %.0f%% of the time; the mean stands for the rest", 100*s.CoveredS/d))
	}
	if len(parts) == 0 {
		return ""
	}
	return "power: " + strings.Join(parts, "; ")
}

// Span returns the power between from and to, from the readings the meter
// kept. Only readings taken inside the span count (a reading from before
// it, such as the previous phase's draw, is not carried into it); only
// when none fell inside do the readings around the span stand for it
// (Span.Around). With an energy counter of fine enough resolution that advanced by
// at least MinCounterSteps steps over most of the span, the counter gives
// the mean; otherwise the readings do, joined linearly where they are no
// further apart than MaxGap, the last one held for at most MaxGap.
func (m *Meter) Span(from, to time.Time) Span {
	return spanOf(m.history(from, to), from, to, m.MaxGap(), m.info.EnergyResolutionWh)
}

func spanOf(hist []Reading, from, to time.Time, maxGap time.Duration, resWh float64) Span {
	sp := Span{From: from, To: to}
	if !to.After(from) {
		return sp
	}
	for _, r := range hist {
		if r.Time.Before(from) || r.Time.After(to) {
			continue
		}
		if r.Err != "" {
			sp.Missing++
			if len(sp.Errors) < MaxErrors && !slices.Contains(sp.Errors, r.Err) {
				sp.Errors = append(sp.Errors, r.Err)
			}
		} else {
			sp.Readings++
		}
	}
	if inside := readingsIn(hist, from, to); len(inside) > 0 {
		hist = inside
	} else {
		sp.Around = true
	}
	integral, covered := integrate(hist, from, to, maxGap)
	sp.CoveredS = round(covered, 2)
	if covered > 0 {
		sp.ReadingsW = ptr(integral / covered)
	}
	hours := to.Sub(from).Hours()
	if w, ok := counterMean(hist, from, to, maxGap, resWh); ok {
		sp.PowerW, sp.Basis = ptr(w), BasisCounter
	} else if sp.ReadingsW != nil {
		sp.PowerW, sp.Basis = ptr(*sp.ReadingsW), BasisReadings
	}
	if sp.PowerW != nil {
		sp.EnergyWh = ptr(*sp.PowerW * hours)
	} else {
		sp.Around = false
	}
	return sp
}

// readingsIn returns the readings of hist taken within [from, to]; nil
// when no good reading is among them.
func readingsIn(hist []Reading, from, to time.Time) []Reading {
	var in []Reading
	good := false
	for _, r := range hist {
		if r.Time.Before(from) || r.Time.After(to) {
			continue
		}
		in = append(in, r)
		good = good || r.OK()
	}
	if !good {
		return nil
	}
	return in
}

// integrate returns the integral of power over [from, to] in watt-seconds
// and the seconds covered.
func integrate(hist []Reading, from, to time.Time, maxGap time.Duration) (ws, covered float64) {
	for i, a := range hist {
		if !a.OK() {
			continue
		}
		var nextGood *Reading
		for j := i + 1; j < len(hist); j++ {
			if hist[j].OK() {
				nextGood = &hist[j]
				break
			}
		}
		if nextGood != nil && nextGood.Time.Sub(a.Time) <= maxGap && nextGood.Time.After(a.Time) {
			// Linear between a and the next good reading.
			s, e := later(a.Time, from), earlier(nextGood.Time, to)
			if !e.After(s) {
				continue
			}
			span := nextGood.Time.Sub(a.Time).Seconds()
			at := func(t time.Time) float64 {
				return *a.W + (*nextGood.W-*a.W)*t.Sub(a.Time).Seconds()/span
			}
			d := e.Sub(s).Seconds()
			ws += d * (at(s) + at(e)) / 2
			covered += d
			continue
		}
		// Held flat until the next entry or MaxGap.
		end := a.Time.Add(maxGap)
		if i+1 < len(hist) && hist[i+1].Time.Before(end) {
			end = hist[i+1].Time
		}
		s, e := later(a.Time, from), earlier(end, to)
		if e.After(s) {
			d := e.Sub(s).Seconds()
			ws += d * *a.W
			covered += d
		}
	}
	return ws, covered
}

// counterMean returns the mean power from the energy counter, when it is
// fit for the span.
func counterMean(hist []Reading, from, to time.Time, maxGap time.Duration, resWh float64) (float64, bool) {
	var a, b *Reading
	for i := range hist {
		r := &hist[i]
		if r.Err != "" || r.EnergyWh == nil || r.Time.After(to) {
			continue
		}
		if r.Time.Before(from) {
			if from.Sub(r.Time) <= maxGap {
				a = r
			}
			continue
		}
		if a == nil {
			a = r
		}
		b = r
	}
	if a == nil || b == nil || !b.Time.After(a.Time) {
		return 0, false
	}
	dE := *b.EnergyWh - *a.EnergyWh
	dt := b.Time.Sub(a.Time)
	if dE < 0 || dt < to.Sub(from)/2 || dE < MinCounterSteps*resWh || (resWh <= 0 && dE == 0) {
		return 0, false
	}
	return dE / dt.Hours(), true
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

func earlier(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}

func round(v float64, digits int) float64 {
	p := math.Pow(10, float64(digits))
	return math.Round(v*p) / p
}
