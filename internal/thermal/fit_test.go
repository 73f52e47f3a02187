package thermal

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestFitCooling recovers τ, the asymptote and ΔT from cooling series with
// the sensor's quantisation and noise, sampled as the monitor samples.
func TestFitCooling(t *testing.T) {
	tests := []struct {
		name                   string
		tau, ambient, delta    float64
		every, duration, noise float64
		quantum                float64
	}{
		{"passive heatsink", 300, 38, 40, 2, 1200, 0.2, 0.538}, // Raspberry Pi sensor steps of 0.538 °C
		{"fan", 45, 35, 30, 1, 300, 0.1, 0.1},
		{"bare SoC, coarse sensor", 120, 45, 25, 5, 900, 0.5, 1},
		{"cut short at 1.5 τ", 600, 30, 50, 2, 900, 0.1, 0.1},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var ts, temps []float64
			for x := 0.0; x <= tc.duration; x += tc.every {
				v := tc.ambient + tc.delta*math.Exp(-x/tc.tau) + rng.NormFloat64()*tc.noise
				ts = append(ts, 1000+x) // any origin
				temps = append(temps, math.Round(v/tc.quantum)*tc.quantum)
			}
			f, err := FitCooling(ts, temps)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(f.TauS-tc.tau)/tc.tau > 0.05 {
				t.Errorf("τ = %.1f s, want %.1f ±5%%", f.TauS, tc.tau)
			}
			if math.Abs(f.AsymptoteC-tc.ambient) > 1 || math.Abs(f.DeltaC-tc.delta) > 1.5 {
				t.Errorf("asymptote %.2f ΔT %.2f, want %.1f and %.1f", f.AsymptoteC, f.DeltaC, tc.ambient, tc.delta)
			}
			if f.RMSC > tc.noise+tc.quantum {
				t.Errorf("rms %.2f", f.RMSC)
			}
		})
	}
}

func TestFitCoolingRejects(t *testing.T) {
	flat := []float64{50, 50, 50, 50, 50, 50}
	rising := []float64{40, 42, 44, 46, 48, 50}
	ts := []float64{0, 10, 20, 30, 40, 50}
	for name, temps := range map[string][]float64{"flat": flat, "rising": rising} {
		if _, err := FitCooling(ts, temps); err == nil {
			t.Errorf("%s: fitted a decay", name)
		}
	}
	if _, err := FitCooling(ts[:3], rising[:3]); err != ErrTooFewPoints {
		t.Errorf("3 points: %v", err)
	}
}
