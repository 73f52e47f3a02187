package power

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Shelly protocol generations.
const (
	shellyUnknown = 0
	shellyGen1    = 1
	shellyGen2    = 2 // Gen2 and later: the RPC API
)

// shellySource reads a Shelly plug or power meter. Gen2 and later answer
// /rpc/Shelly.GetStatus with a "switch:N" (or "pm1:N") component holding
// apower (W), voltage (V) and aenergy.total (Wh); Gen1 answers /status with
// meters[N].power (W) and meters[N].total in watt-minutes (Gen1 EM meters:
// emeters[N].power and .total in Wh).
type shellySource struct {
	base *url.URL
	// component is the Gen2 component ("switch:0") or the Gen1 meter index
	// ("0"); "" for the default.
	component string

	mu  sync.Mutex
	gen int
}

func openShelly(spec Spec) (Source, error) {
	s, err := newShelly(spec.Arg)
	if err != nil {
		return nil, err
	}
	inf := Info{Kind: KindShelly, Spec: spec.String(), Measures: MeasuresWall, Interval: time.Second,
		Description:   "Shelly smart plug at " + s.base.Redacted(),
		EnergyCounter: true, EnergyResolutionWh: 1.0 / 60, // Gen1 counts watt-minutes
		Notes: []string{"a plug measures at the wall: the power supply and its cable are included"}}
	if s.component != "" {
		inf.Description += ", " + s.component
	}
	return Polled(inf, s, DefaultTimeout), nil
}

func newShelly(addr string) (*shellySource, error) {
	addr, frag, _ := strings.Cut(addr, "#")
	u, err := meterURL(addr)
	if err != nil {
		return nil, fmt.Errorf("shelly: %v", err)
	}
	return &shellySource{base: u, component: frag}, nil
}

// Read asks the plug once. The generation is found on the first read: from
// /shelly ("gen" is 2 or more on the RPC generations), else by trying the
// RPC status and falling back to /status.
func (s *shellySource) Read(ctx context.Context) (Reading, error) {
	s.mu.Lock()
	gen := s.gen
	s.mu.Unlock()
	if gen == shellyUnknown {
		g, err := s.generation(ctx)
		if err != nil {
			return Reading{}, err
		}
		s.mu.Lock()
		s.gen, gen = g, g
		s.mu.Unlock()
	}
	if gen == shellyGen1 {
		data, err := httpGet(ctx, s.base, "/status")
		if err != nil {
			return Reading{}, err
		}
		return parseShellyGen1(data, s.component, time.Now())
	}
	data, err := httpGet(ctx, s.base, "/rpc/Shelly.GetStatus")
	if err != nil {
		return Reading{}, err
	}
	return parseShellyGen2(data, s.component, time.Now())
}

func (s *shellySource) generation(ctx context.Context) (int, error) {
	data, err := httpGet(ctx, s.base, "/shelly")
	if err != nil {
		return shellyUnknown, err
	}
	var id struct {
		Gen  *int   `json:"gen"`
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &id); err != nil {
		return shellyUnknown, fmt.Errorf("shelly: /shelly is not a Shelly device description: %v", err)
	}
	if id.Gen != nil && *id.Gen >= 2 {
		return shellyGen2, nil
	}
	return shellyGen1, nil
}

// parseShellyGen2 reads the component of a Shelly.GetStatus answer.
func parseShellyGen2(data []byte, component string, t time.Time) (Reading, error) {
	var st map[string]json.RawMessage
	if err := json.Unmarshal(data, &st); err != nil {
		return Reading{}, fmt.Errorf("shelly: Shelly.GetStatus answer is not JSON: %v", shorten(err))
	}
	keys := []string{component}
	if component == "" {
		keys = []string{"switch:0", "pm1:0"}
	}
	for _, k := range keys {
		raw, ok := st[k]
		if !ok {
			continue
		}
		var c struct {
			APower  *float64 `json:"apower"`
			Voltage *float64 `json:"voltage"`
			AEnergy *struct {
				Total *float64 `json:"total"`
			} `json:"aenergy"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			return Reading{}, fmt.Errorf("shelly: %s: %v", k, shorten(err))
		}
		if c.APower == nil {
			return Reading{}, fmt.Errorf("shelly: %s has no apower (a switch without a power meter?)", k)
		}
		r := Reading{Time: t, W: ptr(*c.APower)}
		if c.AEnergy != nil && c.AEnergy.Total != nil {
			r.EnergyWh = ptr(*c.AEnergy.Total)
		}
		return checked(KindShelly, r)
	}
	return Reading{}, fmt.Errorf("shelly: no %s component in Shelly.GetStatus", strings.Join(keys, " or "))
}

// parseShellyGen1 reads meter n of a Gen1 /status answer.
func parseShellyGen1(data []byte, component string, t time.Time) (Reading, error) {
	var st struct {
		Meters []struct {
			Power   *float64 `json:"power"`
			IsValid *bool    `json:"is_valid"`
			Total   *float64 `json:"total"` // watt-minutes
		} `json:"meters"`
		EMeters []struct {
			Power   *float64 `json:"power"`
			IsValid *bool    `json:"is_valid"`
			Total   *float64 `json:"total"` // Wh
		} `json:"emeters"`
	}
	if err := json.Unmarshal(data, &st); err != nil {
		return Reading{}, fmt.Errorf("shelly: /status answer is not JSON: %v", shorten(err))
	}
	n := 0
	if component != "" {
		v, err := strconv.Atoi(strings.TrimPrefix(component, "meter:"))
		if err != nil || v < 0 {
			return Reading{}, fmt.Errorf("shelly: Gen1 meter %q: give its index, e.g. #1", component)
		}
		n = v
	}
	var power, total *float64
	var valid *bool
	scale := 1.0 / 60 // watt-minutes → Wh
	switch {
	case n < len(st.Meters):
		power, total, valid = st.Meters[n].Power, st.Meters[n].Total, st.Meters[n].IsValid
	case n < len(st.EMeters):
		power, total, valid, scale = st.EMeters[n].Power, st.EMeters[n].Total, st.EMeters[n].IsValid, 1
	default:
		return Reading{}, fmt.Errorf("shelly: no meter %d in /status", n)
	}
	if valid != nil && !*valid {
		return Reading{}, fmt.Errorf("shelly: meter %d says its reading is not valid", n)
	}
	if power == nil {
		return Reading{}, fmt.Errorf("shelly: meter %d has no power", n)
	}
	r := Reading{Time: t, W: ptr(*power)}
	if total != nil {
		r.EnergyWh = ptr(*total * scale)
	}
	return checked(KindShelly, r)
}

// shorten keeps a decoding error to its first 120 characters.
func shorten(err error) string {
	s := err.Error()
	if len(s) > 120 {
		s = s[:120] + "…"
	}
	return s
}
