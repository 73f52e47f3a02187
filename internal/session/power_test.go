package session

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"boardbench/internal/inventory"
	"boardbench/internal/power"
	"boardbench/internal/result"
	"boardbench/internal/testutil/fakeclock"
	"boardbench/internal/testutil/fixture"
)

// A board with an INA226 on its input: chosen automatically, an idle
// baseline before the first phase, power in every sample and phase.
func TestSessionPower(t *testing.T) {
	h := fixture.Host(t, map[string]string{
		"/proc/loadavg":                         "0.01 0.02 0.03 1/100 42\n",
		"/sys/class/hwmon/hwmon0/name":          "ina226\n",
		"/sys/class/hwmon/hwmon0/in1_input":     "5000\n",
		"/sys/class/hwmon/hwmon0/curr1_input":   "400\n",
		"/sys/class/hwmon/hwmon0/power1_input":  "2000000\n",
		"/sys/class/hwmon/hwmon0/energy1_input": "1000000\n",
	})
	// The meter's clock is a fake one moved by the test: the sensor (read
	// every 500 ms) reads at 0 s, 0.5 s and 1 s of the 1.2 s baseline, and
	// at 1.5 s and 2 s, the phase's end, whatever the machine's load.
	clk := fakeclock.New(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	var warn bytes.Buffer
	s, err := Start(context.Background(), Config{Host: h, Info: inventory.Collect(h, inventory.Options{Redact: true}),
		Command: "test", Path: filepath.Join(t.TempDir(), "r.json"), Warn: &warn, Interval: 100 * time.Millisecond,
		Power: power.Options{IdleBaseline: 1200 * time.Millisecond, Clock: clk}})
	if err != nil {
		t.Fatal(err)
	}
	began, release, ran := make(chan struct{}), make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ran)
		s.Run(context.Background(), []Step{{Name: "a", Run: func(ctx context.Context, p *result.Phase) error {
			close(began)
			<-release
			return nil
		}}})
	}()
	for _, d := range []time.Duration{500 * time.Millisecond, 500 * time.Millisecond} {
		clk.BlockUntil(t, 2) // the sensor's next read and the baseline's end
		clk.Advance(d)
	}
	clk.BlockUntil(t, 2)
	clk.Advance(200 * time.Millisecond) // the baseline ends
	<-began
	for _, d := range []time.Duration{300 * time.Millisecond, 500 * time.Millisecond} {
		clk.BlockUntil(t, 1) // the sensor has recorded its reading
		clk.Advance(d)
	}
	clk.BlockUntil(t, 1)
	close(release)
	<-ran
	out, err := s.Finish(context.Background(), End{})
	if err != nil {
		t.Fatal(err)
	}
	r := out.Result
	if r.Power == nil || r.Power.Source != "hwmon:ina226" || r.Power.Measures != power.MeasuresBoard || !strings.Contains(r.Power.Reason, "board-level") {
		t.Fatalf("power %+v", r.Power)
	}
	if r.Power.Idle == nil || r.Power.Idle.PowerW == nil || *r.Power.Idle.PowerW != 2 || r.Power.Idle.Readings != 3 || r.Power.Idle.DurationS != 1.2 {
		t.Errorf("idle baseline %+v, want 2 W from 3 readings in 1.2 s", r.Power.Idle)
	}
	p := r.Phases[0]
	// The energy counter does not move in the fixture: the readings count.
	if p.PowerW == nil || *p.PowerW != 2 || p.PowerBasis != power.BasisReadings || p.EnergyWh == nil {
		t.Errorf("phase power %v %q %v", p.PowerW, p.PowerBasis, p.EnergyWh)
	}
	for _, smp := range p.Samples {
		if smp.PowerW == nil || *smp.PowerW != 2 {
			t.Errorf("sample without 2 W: %v", smp.PowerW)
		}
	}
	if r.Power.Readings != 5 || r.Power.Missing != 0 {
		t.Errorf("%d readings and %d missing counted, want 5 and 0", r.Power.Readings, r.Power.Missing)
	}
}

// An explicit source that gives no first reading stops the session before
// anything is measured.
func TestSessionPowerUnreachable(t *testing.T) {
	h := fixture.Host(t, map[string]string{"/proc/loadavg": "0.01 0.02 0.03 1/100 42\n"})
	spec, _ := power.ParseSpec("shelly:http://127.0.0.1:1")
	_, err := Start(context.Background(), Config{Host: h, Info: inventory.Collect(h, inventory.Options{Redact: true}),
		Command: "test", Power: power.Options{Spec: spec}})
	if err == nil || !strings.Contains(err.Error(), "power source shelly:http://127.0.0.1:1") {
		t.Fatalf("error %v", err)
	}
}
