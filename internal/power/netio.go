package power

import (
	"context"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Netio protocols.
const (
	netioUnknown = ""
	netioJSON    = "/netio.json"
	netioXML     = "/netio.xml"
)

// netioOutput is one output of a Netio answer: Load in W, Energy in Wh.
type netioOutput struct {
	ID     int      `json:"ID" xml:"ID"`
	Name   string   `json:"Name" xml:"Name"`
	Load   *float64 `json:"Load" xml:"Load"`
	Energy *float64 `json:"Energy" xml:"Energy"`
}

// netioSource reads one output of a Netio PowerCable or PowerBOX over its
// JSON API (/netio.json) or, for older setups, its XML API (/netio.xml).
type netioSource struct {
	base   *url.URL
	output string // "#OUTPUT": an ID or a name; "" for the only output

	mu    sync.Mutex
	proto string
}

func openNetio(spec Spec) (Source, error) {
	addr, frag, _ := strings.Cut(spec.Arg, "#")
	u, err := meterURL(addr)
	if err != nil {
		return nil, fmt.Errorf("netio: %v", err)
	}
	s := &netioSource{base: u, output: frag}
	switch {
	case strings.HasSuffix(u.Path, ".xml"):
		s.proto = netioXML
	case strings.HasSuffix(u.Path, ".json"):
		s.proto = netioJSON
	}
	inf := Info{Kind: KindNetio, Spec: spec.String(), Measures: MeasuresWall, Interval: time.Second,
		Description:   "Netio at " + u.Redacted(),
		EnergyCounter: true, EnergyResolutionWh: 1,
		Notes: []string{"a Netio output measures at the wall: the power supply and its cable are included"}}
	if frag != "" {
		inf.Description += ", output " + frag
	}
	return Polled(inf, s, DefaultTimeout), nil
}

// Read asks the Netio once: JSON first, XML when the JSON API answers 404
// (it is off or absent); a URL ending in .json or .xml fixes the protocol.
func (s *netioSource) Read(ctx context.Context) (Reading, error) {
	s.mu.Lock()
	proto := s.proto
	s.mu.Unlock()
	try := []string{proto}
	if proto == netioUnknown {
		try = []string{netioJSON, netioXML}
	}
	var err error
	for _, p := range try {
		var data []byte
		data, err = httpGet(ctx, s.base, p)
		var nf errNotFound
		if errors.As(err, &nf) && proto == netioUnknown {
			continue
		}
		if err != nil {
			return Reading{}, err
		}
		t := time.Now()
		var outs []netioOutput
		if p == netioXML {
			outs, err = parseNetioXML(data)
		} else {
			outs, err = parseNetioJSON(data)
		}
		if err != nil {
			return Reading{}, err
		}
		s.mu.Lock()
		s.proto = p
		s.mu.Unlock()
		return netioReading(outs, s.output, t)
	}
	return Reading{}, fmt.Errorf("netio: neither /netio.json nor /netio.xml answered (enable the JSON or XML API in the device's M2M settings): %v", err)
}

// parseNetioJSON reads the Outputs of a netio.json answer.
func parseNetioJSON(data []byte) ([]netioOutput, error) {
	var doc struct {
		Outputs []netioOutput `json:"Outputs"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("netio: netio.json answer is not JSON: %v", shorten(err))
	}
	return doc.Outputs, nil
}

// parseNetioXML reads the Outputs of a netio.xml answer, whatever its root
// element.
func parseNetioXML(data []byte) ([]netioOutput, error) {
	var doc struct {
		Outputs []netioOutput `xml:"Outputs>Output"`
	}
	if err := xml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("netio: netio.xml answer is not XML: %v", shorten(err))
	}
	return doc.Outputs, nil
}

// netioReading picks the output: by ID or name, or the only one.
func netioReading(outs []netioOutput, want string, t time.Time) (Reading, error) {
	if len(outs) == 0 {
		return Reading{}, fmt.Errorf("netio: the answer lists no outputs")
	}
	var o *netioOutput
	switch {
	case want == "" && len(outs) == 1:
		o = &outs[0]
	case want == "":
		return Reading{}, fmt.Errorf("netio: %d outputs; say which one with #ID, e.g. netio:URL#1", len(outs))
	default:
		id, idErr := strconv.Atoi(want)
		for i := range outs {
			if (idErr == nil && outs[i].ID == id) || strings.EqualFold(outs[i].Name, want) {
				o = &outs[i]
				break
			}
		}
		if o == nil {
			return Reading{}, fmt.Errorf("netio: no output %q", want)
		}
	}
	if o.Load == nil {
		return Reading{}, fmt.Errorf("netio: output %d has no Load (a model without metering?)", o.ID)
	}
	r := Reading{Time: t, W: ptr(*o.Load)}
	if o.Energy != nil {
		r.EnergyWh = ptr(*o.Energy)
	}
	return checked(KindNetio, r)
}
