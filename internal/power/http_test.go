package power

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"boardbench/internal/testutil/wait"
)

const shellyGen2Status = `{"ble":{},"cloud":{"connected":false},"switch:0":{"id":0,"source":"init","output":true,"apower":2.31,"voltage":231.4,"current":0.021,"aenergy":{"total":1234.567,"by_minute":[38.1,38.5,38.2],"minute_ts":1700000000},"temperature":{"tC":31.2,"tF":88.2}},"sys":{"uptime":1000}}`

const shellyGen1Status = `{"wifi_sta":{"connected":true},"relays":[{"ison":true}],"meters":[{"power":1.28,"overpower":0.0,"is_valid":true,"timestamp":1700000000,"counters":[1.2,1.3,1.1],"total":600}],"temperature":30.1}`

const netioJSONAnswer = `{"Agent":{"Model":"PowerBOX 4Kx","NumOutputs":2},"GlobalMeasure":{"Voltage":230.2,"TotalLoad":6},"Outputs":[{"ID":1,"Name":"board","State":1,"Current":12,"PowerFactor":0.5,"Load":2,"Energy":3154},{"ID":2,"Name":"switch","State":1,"Load":4,"Energy":100}]}`

const netioXMLAnswer = `<?xml version="1.0" encoding="utf-8"?>
<set><Agent><Model>NETIO 4</Model></Agent><GlobalMeasure><Voltage>230</Voltage></GlobalMeasure>
<Outputs><Output><ID>1</ID><Name>board</Name><State>1</State><Load>3</Load><Energy>77</Energy></Output></Outputs></set>`

// meterServer serves fixed answers per path; 404 elsewhere.
func meterServer(t *testing.T, answers map[string]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a, ok := answers[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Write([]byte(a))
	}))
	t.Cleanup(srv.Close)
	return srv
}

func readOnce(t *testing.T, spec string) (Reading, error) {
	t.Helper()
	sp, err := ParseSpec(spec)
	if err != nil {
		t.Fatal(err)
	}
	src, err := Open(context.Background(), nil, nil, sp)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), wait.HangGuard)
	defer cancel()
	return src.(*polled).p.Read(ctx)
}

func TestNetworkedMeters(t *testing.T) {
	gen2 := meterServer(t, map[string]string{"/shelly": `{"id":"shellyplusplugs-1","gen":2}`, "/rpc/Shelly.GetStatus": shellyGen2Status})
	gen1 := meterServer(t, map[string]string{"/shelly": `{"type":"SHPLG-S","mac":"x"}`, "/status": shellyGen1Status})
	nj := meterServer(t, map[string]string{"/netio.json": netioJSONAnswer})
	nx := meterServer(t, map[string]string{"/netio.xml": netioXMLAnswer})
	tests := []struct {
		spec     string
		w, e     float64
		hasE     bool
		errorHas string
	}{
		{spec: "shelly:" + gen2.URL, w: 2.31, e: 1234.567, hasE: true},
		{spec: "shelly:" + gen2.URL + "#switch:1", errorHas: "no switch:1 component"},
		// Gen1 total is in watt-minutes: 600 Wmin = 10 Wh.
		{spec: "shelly:" + gen1.URL, w: 1.28, e: 10, hasE: true},
		{spec: "netio:" + nj.URL + "#1", w: 2, e: 3154, hasE: true},
		{spec: "netio:" + nj.URL + "#switch", w: 4, e: 100, hasE: true},
		{spec: "netio:" + nj.URL, errorHas: "2 outputs"},
		{spec: "netio:" + nx.URL, w: 3, e: 77, hasE: true},
		{spec: "netio:" + nx.URL + "/netio.xml#1", w: 3, e: 77, hasE: true},
	}
	for _, tc := range tests {
		t.Run(tc.spec, func(t *testing.T) {
			r, err := readOnce(t, tc.spec)
			if tc.errorHas != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errorHas) {
					t.Fatalf("error %v, want one with %q", err, tc.errorHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.W == nil || *r.W != tc.w {
				t.Errorf("W = %v, want %v", r.W, tc.w)
			}
			if tc.hasE && (r.EnergyWh == nil || abs(*r.EnergyWh-tc.e) > 1e-9) {
				t.Errorf("EnergyWh = %v, want %v", r.EnergyWh, tc.e)
			}
			if r.Time.IsZero() {
				t.Error("reading without a time")
			}
		})
	}
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

func TestGarbageAnswers(t *testing.T) {
	srv := meterServer(t, map[string]string{"/shelly": `{"gen":2}`, "/rpc/Shelly.GetStatus": `<html>oops`, "/netio.json": `{"Outputs":[{"ID":1,"Name":"x"}]}`})
	if _, err := readOnce(t, "shelly:"+srv.URL); err == nil || !strings.Contains(err.Error(), "not JSON") {
		t.Errorf("garbage Shelly answer: %v", err)
	}
	if _, err := readOnce(t, "netio:"+srv.URL); err == nil || !strings.Contains(err.Error(), "no Load") {
		t.Errorf("Netio without Load: %v", err)
	}
}

// TestMeterSurvivesBadMeter runs a meter against a plug that answers,
// then hangs past the timeout, then answers garbage, then goes away: the
// meter keeps going, records each failure as missing, and samples see no
// stale value.
func TestMeterSurvivesBadMeter(t *testing.T) {
	var mode atomic.Int32 // 0 good, 1 hang, 2 garbage
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/shelly":
			w.Write([]byte(`{"gen":2}`))
		case mode.Load() == 1:
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		case mode.Load() == 2:
			w.Write([]byte(`garbage`))
		default:
			w.Write([]byte(shellyGen2Status))
		}
	}))
	s, err := newShelly(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	src := Polled(Info{Kind: KindShelly, Interval: 50 * time.Millisecond}, s, 200*time.Millisecond)
	m := NewMeter(src)
	m.Start(context.Background())
	defer m.Stop()
	if err := m.WaitFirst(context.Background(), wait.HangGuard); err != nil {
		t.Fatal(err)
	}
	waitFor(t, func() bool { return m.Stats().Readings >= 3 })
	// A loaded machine may let a read of the working plug time out now
	// and then: a fresh reading comes all the same.
	wait.Until(t, "a fresh reading from a working plug", func() bool { _, ok := m.Latest(time.Now()); return ok })
	hanging := m.Stats().Missing
	mode.Store(1)
	waitFor(t, func() bool { st := m.Stats(); return st.Missing >= hanging+2 })
	if _, ok := m.Latest(time.Now()); ok {
		t.Error("a hanging plug still gives a power value")
	}
	mode.Store(2)
	waitFor(t, func() bool { return hasError(m.Stats(), "not JSON") })
	srv.Close()
	before := m.Stats().Missing
	waitFor(t, func() bool { return m.Stats().Missing >= before+2 })
	st := m.Stats()
	if !hasError(st, "timed out") {
		t.Errorf("errors %q lack the timeout", st.Errors)
	}
	sp := m.Span(time.Now().Add(-time.Minute), time.Now())
	if sp.Missing == 0 || sp.Readings == 0 || !strings.Contains(sp.Note(), "missing") {
		t.Errorf("span %+v, note %q", sp, sp.Note())
	}
}

func hasError(st Stats, s string) bool {
	for _, e := range st.Errors {
		if strings.Contains(e, s) {
			return true
		}
	}
	return false
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	wait.Until(t, "the condition", cond)
}
