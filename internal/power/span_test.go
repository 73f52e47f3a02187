package power

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"
)

func TestSpan(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	good := func(s, w float64) Reading { return Reading{Time: at(s), W: ptr(w)} }
	withE := func(s, w, e float64) Reading { r := good(s, w); r.EnergyWh = ptr(e); return r }
	tests := []struct {
		name      string
		hist      []Reading
		from, to  float64
		resWh     float64
		wantW     float64
		wantBasis string
		noFigure  bool
		around    bool
	}{
		{name: "constant readings", hist: []Reading{good(0, 2), good(1, 2), good(2, 2), good(3, 2)}, from: 0.5, to: 2.5, wantW: 2, wantBasis: BasisReadings},
		{name: "ramp is time weighted", hist: []Reading{good(0, 1), good(2, 3)}, from: 0, to: 2, wantW: 2, wantBasis: BasisReadings},
		// The counter advances 100 steps of 1/60 Wh in 60 s: 100 W, while
		// the two readings (sampled in a quiet moment) say 1 W.
		{name: "counter wins", hist: []Reading{withE(0, 1, 10), withE(60, 1, 10+100.0/60)}, from: 0, to: 60, resWh: 1.0 / 60, wantW: 100, wantBasis: BasisCounter},
		// One Wh steps and a 1-Wh change: too coarse, the readings count.
		{name: "coarse counter", hist: []Reading{withE(0, 5, 10), withE(60, 5, 11)}, from: 0, to: 60, resWh: 1, wantW: 5, wantBasis: BasisReadings},
		{name: "counter reset", hist: []Reading{withE(0, 5, 1000), withE(60, 5, 3)}, from: 0, to: 60, resWh: 1e-9, wantW: 5, wantBasis: BasisReadings},
		{name: "all failed", hist: []Reading{{Time: at(1), Err: "timed out"}, {Time: at(2), Err: "timed out"}}, from: 0, to: 3, noFigure: true},
		// A stale reading before the span (older than MaxGap) stands for nothing.
		{name: "stale", hist: []Reading{good(0, 9)}, from: 100, to: 110, noFigure: true},
		// A short span between two readings gets their interpolation.
		{name: "short span", hist: []Reading{good(0, 2), good(2, 4)}, from: 0.9, to: 1.1, wantW: 3, wantBasis: BasisReadings, around: true},
		// The previous phase drew 5 W until just before this span: its
		// reading is not carried into the span, whose readings say 1 W.
		{name: "previous phase not carried", hist: []Reading{good(0, 5), good(0.9, 5), good(1.2, 1), good(1.7, 1), good(2.2, 1)}, from: 1, to: 2.5, wantW: 1, wantBasis: BasisReadings},
		// The same with an energy counter: its start is the first reading
		// inside the span (60 W before, 6 W inside).
		{name: "counter starts inside", hist: []Reading{withE(0, 60, 0), withE(10, 6, 60.0/360), withE(70, 6, 60.0/360+0.1)}, from: 9, to: 70, resWh: 1e-6, wantW: 6, wantBasis: BasisCounter},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sp := spanOf(tc.hist, at(tc.from), at(tc.to), 3*time.Second, tc.resWh)
			if tc.noFigure {
				if sp.PowerW != nil {
					t.Fatalf("PowerW %v, want none", *sp.PowerW)
				}
				if sp.Note() == "" {
					t.Error("no note for a span without a figure")
				}
				return
			}
			if sp.Around != tc.around || (tc.around && sp.Note() == "") {
				t.Errorf("Around %v note %q, want %v", sp.Around, sp.Note(), tc.around)
			}
			if sp.PowerW == nil || math.Abs(*sp.PowerW-tc.wantW) > 1e-9 || sp.Basis != tc.wantBasis {
				t.Fatalf("PowerW %v basis %q, want %v %q", sp.PowerW, sp.Basis, tc.wantW, tc.wantBasis)
			}
			wantE := tc.wantW * (tc.to - tc.from) / 3600
			if sp.EnergyWh == nil || math.Abs(*sp.EnergyWh-wantE) > 1e-9 {
				t.Errorf("EnergyWh %v, want %v", sp.EnergyWh, wantE)
			}
		})
	}
}

// The Zero 2 W seed's tables (7-Zip MIPS and watts at the wall per clock,
// one core and all four): MIPS/W as the seed's figures give it, the whole
// wall power, idle included.
func TestMIPSPerWattSeed(t *testing.T) {
	tests := []struct {
		mhz, mips, mW int
		want          float64
	}{
		{600, 511, 1280, 399.2}, {700, 593, 1390, 426.6}, {800, 676, 1510, 447.7},
		{900, 755, 1570, 480.9}, {1000, 835, 1610, 518.6},
		{600, 1870, 1700, 1100.0}, {700, 2152, 1940, 1109.3}, {800, 2465, 2060, 1196.6},
		{900, 2750, 2170, 1267.3}, {1000, 3009, 2330, 1291.4},
	}
	for _, tc := range tests {
		got, ok := MIPSPerWatt(float64(tc.mips), float64(tc.mW)/1000)
		if !ok || math.Round(got*10)/10 != tc.want {
			t.Errorf("%d MHz: %d MIPS at %d mW = %.2f MIPS/W, want %.1f", tc.mhz, tc.mips, tc.mW, got, tc.want)
		}
	}
	if _, ok := MIPSPerWatt(100, 0); ok {
		t.Error("MIPS/W without power")
	}
}

// onceSource gives one reading when started, then every interval (none
// when interval is 0), like a program that prints one number and exits.
type onceSource struct {
	w        float64
	interval time.Duration
}

func (s onceSource) Info() Info {
	return Info{Kind: KindCmd, Measures: MeasuresWall, Interval: 50 * time.Millisecond}
}

func (s onceSource) Run(ctx context.Context, emit func(Reading)) {
	emit(Reading{Time: time.Now(), W: ptr(s.w)})
	if s.interval <= 0 {
		<-ctx.Done()
		return
	}
	t := time.NewTicker(s.interval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			emit(Reading{Time: now, W: ptr(s.w)})
		}
	}
}

// TestBaselineNeedsReadings: an idle baseline during which the meter gave
// no reading has no power figure and says why, even though a reading
// from before it exists; with readings during it, it has their mean.
func TestBaselineNeedsReadings(t *testing.T) {
	for _, tc := range []struct {
		name     string
		interval time.Duration
		wantW    bool
	}{{"no reading during the baseline", 0, false}, {"readings during the baseline", 20 * time.Millisecond, true}} {
		t.Run(tc.name, func(t *testing.T) {
			m := NewMeter(onceSource{w: 3.5, interval: tc.interval})
			m.Start(context.Background())
			defer m.Stop()
			if err := m.WaitFirst(context.Background(), time.Second); err != nil {
				t.Fatal(err)
			}
			sp := m.Baseline(context.Background(), 150*time.Millisecond)
			if !tc.wantW {
				if sp.PowerW != nil || sp.EnergyWh != nil || sp.Readings != 0 || !strings.Contains(sp.Note(), "no usable reading") {
					t.Errorf("power %v energy %v readings %d note %q", sp.PowerW, sp.EnergyWh, sp.Readings, sp.Note())
				}
				return
			}
			// A time-weighted mean of equal readings: 3.5 up to rounding.
			if sp.PowerW == nil || math.Abs(*sp.PowerW-3.5) > 1e-9 || sp.Readings == 0 {
				var w any = sp.PowerW
				if sp.PowerW != nil {
					w = *sp.PowerW
				}
				t.Errorf("power %v readings %d", w, sp.Readings)
			}
		})
	}
}
