package power

import (
	"context"
	"math"
	"strings"
	"testing"
	"time"
)

// TestImpossibleReadingsRefused feeds every networked protocol readings no
// meter can give (1e308 W, NaN, ±Inf, negative watts, an absurd energy
// counter): each read is a failed one whose error names the value, never
// a reading.
func TestImpossibleReadingsRefused(t *testing.T) {
	gen2 := func(apower, total string) string {
		return `{"switch:0":{"apower":` + apower + `,"aenergy":{"total":` + total + `}}}`
	}
	tests := []struct {
		name     string
		answers  map[string]string
		spec     string
		errorHas string
	}{
		{name: "shelly gen2 1e308 W", spec: "shelly:", errorHas: "implausible power",
			answers: map[string]string{"/shelly": `{"gen":2}`, "/rpc/Shelly.GetStatus": gen2("1e308", "5")}},
		{name: "shelly gen2 negative", spec: "shelly:", errorHas: "negative power",
			answers: map[string]string{"/shelly": `{"gen":2}`, "/rpc/Shelly.GetStatus": gen2("-3.5", "5")}},
		{name: "shelly gen2 counter 1e308", spec: "shelly:", errorHas: "energy counter",
			answers: map[string]string{"/shelly": `{"gen":2}`, "/rpc/Shelly.GetStatus": gen2("2.5", "1e308")}},
		{name: "shelly gen2 counter negative", spec: "shelly:", errorHas: "energy counter",
			answers: map[string]string{"/shelly": `{"gen":2}`, "/rpc/Shelly.GetStatus": gen2("2.5", "-1")}},
		{name: "shelly gen1 1e308 W", spec: "shelly:", errorHas: "implausible power",
			answers: map[string]string{"/shelly": `{"type":"SHPLG-S"}`, "/status": `{"meters":[{"power":1e308,"is_valid":true,"total":60}]}`}},
		{name: "shelly gen1 counter overflows", spec: "shelly:", errorHas: "energy counter",
			answers: map[string]string{"/shelly": `{"type":"SHPLG-S"}`, "/status": `{"meters":[{"power":1,"is_valid":true,"total":1.7e308}]}`}},
		{name: "netio json 1e308 W", spec: "netio:", errorHas: "implausible power",
			answers: map[string]string{"/netio.json": `{"Outputs":[{"ID":1,"Load":1e308,"Energy":1}]}`}},
		{name: "netio json negative", spec: "netio:", errorHas: "negative power",
			answers: map[string]string{"/netio.json": `{"Outputs":[{"ID":1,"Load":-2,"Energy":1}]}`}},
		{name: "netio xml NaN", spec: "netio:", errorHas: "not a number",
			answers: map[string]string{"/netio.xml": `<set><Outputs><Output><ID>1</ID><Load>NaN</Load></Output></Outputs></set>`}},
		{name: "netio xml +Inf", spec: "netio:", errorHas: "implausible power",
			answers: map[string]string{"/netio.xml": `<set><Outputs><Output><ID>1</ID><Load>+Inf</Load></Output></Outputs></set>`}},
		{name: "netio xml energy -Inf", spec: "netio:", errorHas: "energy counter",
			answers: map[string]string{"/netio.xml": `<set><Outputs><Output><ID>1</ID><Load>3</Load><Energy>-Inf</Energy></Output></Outputs></set>`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := meterServer(t, tc.answers)
			r, err := readOnce(t, tc.spec+srv.URL)
			if err == nil {
				t.Fatalf("read %v W, %v Wh: want an error", deref(r.W), deref(r.EnergyWh))
			}
			if !strings.Contains(err.Error(), tc.errorHas) {
				t.Errorf("error %q, want one with %q", err, tc.errorHas)
			}
		})
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// fakeSource emits the readings it is given, then waits.
type fakeSource struct{ rs []Reading }

func (s fakeSource) Info() Info { return Info{Kind: "fake", Interval: time.Second} }

func (s fakeSource) Run(ctx context.Context, emit func(Reading)) {
	for _, r := range s.rs {
		emit(r)
	}
	<-ctx.Done()
}

// TestMeterRefusesImpossibleReadings checks the meter's own guard, which
// every source passes through: a source that emits a non-finite or
// negative value has it counted as a missing reading with a reason, and no
// span or latest value carries it.
func TestMeterRefusesImpossibleReadings(t *testing.T) {
	t0 := time.Now().Add(-10 * time.Second)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	rs := []Reading{
		{Time: at(0), W: ptr(2)},
		{Time: at(1), W: ptr(math.Inf(1))},
		{Time: at(2), W: ptr(math.NaN())},
		{Time: at(3), W: ptr(-1)},
		{Time: at(4), W: ptr(1e308)},
		{Time: at(5), W: ptr(2), EnergyWh: ptr(math.Inf(-1))},
		{Time: at(6), W: ptr(2)},
	}
	m := NewMeter(fakeSource{rs})
	m.Start(context.Background())
	defer m.Stop()
	waitFor(t, func() bool { st := m.Stats(); return st.Readings+st.Missing == len(rs) })
	st := m.Stats()
	if st.Readings != 2 || st.Missing != 5 {
		t.Errorf("%d readings, %d missing; want 2 and 5 (errors %q)", st.Readings, st.Missing, st.Errors)
	}
	sp := m.Span(at(-0.5), at(6.5))
	for _, v := range []*float64{sp.PowerW, sp.EnergyWh, sp.ReadingsW} {
		if v != nil && (math.IsInf(*v, 0) || math.IsNaN(*v) || *v != *v || *v > 10) {
			t.Errorf("span carries %v", *v)
		}
	}
	if !strings.Contains(sp.Note(), "missing") {
		t.Errorf("span note %q does not say readings were missing", sp.Note())
	}
}

// TestHwmonNegativePowerRefused: a current monitor wired the other way (or
// a reverse current) gives negative watts, which are no board's draw.
func TestHwmonNegativePowerRefused(t *testing.T) {
	h := fixtureRoot(t, map[string]string{
		"sys/class/hwmon/hwmon0/name": "ina3221\n", "sys/class/hwmon/hwmon0/in1_input": "5000\n",
		"sys/class/hwmon/hwmon0/curr1_input": "-1200\n"})
	src, err := Open(context.Background(), h, nil, Spec{Kind: KindHwmon, Arg: "ina3221"})
	if err != nil {
		t.Fatal(err)
	}
	if r, err := src.(*polled).p.Read(context.Background()); err == nil || !strings.Contains(err.Error(), "negative power") {
		t.Errorf("read %v, %v: want a negative-power error", deref(r.W), err)
	}
}
