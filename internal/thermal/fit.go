// Package thermal analyses the temperature, clock and score series of
// `boardbench thermal`: the time to throttle, the sustained clock and score
// under heat against the cold start, the temperature the SoC settles at
// under load and the cooling time constant, fitted as an exponential decay.
// Its functions are pure: they read recorded phases and samples.
package thermal

import (
	"math"
)

// Fit is an exponential decay T(t) = AsymptoteC + DeltaC·e^(−t/TauS), t in
// seconds from the first point; RMSC is the root-mean-square residual.
type Fit struct {
	TauS       float64
	AsymptoteC float64
	DeltaC     float64
	RMSC       float64
}

// ErrTooFewPoints is returned when a series cannot determine a decay.
const ErrTooFewPoints = sentinel("too few temperature readings to fit a cooling curve (at least 5 over 30 s are needed)")

// ErrNotDecaying is returned when the series does not fall.
const ErrNotDecaying = sentinel("the temperature did not fall exponentially")

// sentinel is an error value of this package that callers match with
// errors.Is; being a string constant, it costs nothing at start-up.
type sentinel string

func (e sentinel) Error() string { return string(e) }

// FitCooling fits T(t) = a + b·e^(−t/τ) to a cooling series by least
// squares: for a given τ the model is linear in a and b, so τ is searched
// (a logarithmic grid, then golden-section refinement) for the smallest
// residual. ts are seconds (any origin, ascending), temps in °C.
func FitCooling(ts, temps []float64) (Fit, error) {
	if len(ts) != len(temps) || len(ts) < 5 || ts[len(ts)-1]-ts[0] < 30 {
		return Fit{}, ErrTooFewPoints
	}
	t0 := ts[0]
	x := make([]float64, len(ts))
	for i, t := range ts {
		x[i] = t - t0
	}
	span := x[len(x)-1]
	sse := func(tau float64) (float64, float64, float64) {
		a, b, ok := linearFit(x, temps, tau)
		if !ok {
			return math.Inf(1), 0, 0
		}
		var s float64
		for i := range x {
			d := temps[i] - (a + b*math.Exp(-x[i]/tau))
			s += d * d
		}
		return s, a, b
	}
	lo, hi := span/1000, span*20
	best, bestTau := math.Inf(1), 0.0
	const steps = 200
	for i := 0; i <= steps; i++ {
		tau := lo * math.Pow(hi/lo, float64(i)/steps)
		if s, _, _ := sse(tau); s < best {
			best, bestTau = s, tau
		}
	}
	if math.IsInf(best, 1) {
		return Fit{}, ErrNotDecaying
	}
	// Golden-section search in log τ around the best grid point.
	ratio := math.Pow(hi/lo, 1.0/steps)
	a, b := math.Log(bestTau/ratio), math.Log(bestTau*ratio)
	g := (math.Sqrt(5) - 1) / 2
	c, d := b-g*(b-a), a+g*(b-a)
	fc, _, _ := sse(math.Exp(c))
	fd, _, _ := sse(math.Exp(d))
	for i := 0; i < 100 && b-a > 1e-9; i++ {
		if fc < fd {
			b, d, fd = d, c, fc
			c = b - g*(b-a)
			fc, _, _ = sse(math.Exp(c))
		} else {
			a, c, fc = c, d, fd
			d = a + g*(b-a)
			fd, _, _ = sse(math.Exp(d))
		}
	}
	tau := math.Exp((a + b) / 2)
	s, asym, delta := sse(tau)
	if delta <= 0 || tau >= hi*0.99 {
		return Fit{}, ErrNotDecaying
	}
	return Fit{TauS: tau, AsymptoteC: asym, DeltaC: delta, RMSC: math.Sqrt(s / float64(len(x)))}, nil
}

// linearFit solves y = a + b·e^(−x/τ) by least squares.
func linearFit(x, y []float64, tau float64) (a, b float64, ok bool) {
	var n, su, sy, suu, suy float64
	for i := range x {
		u := math.Exp(-x[i] / tau)
		n++
		su += u
		sy += y[i]
		suu += u * u
		suy += u * y[i]
	}
	den := n*suu - su*su
	if math.Abs(den) < 1e-12 {
		return 0, 0, false
	}
	b = (n*suy - su*sy) / den
	a = (sy - b*su) / n
	return a, b, true
}
