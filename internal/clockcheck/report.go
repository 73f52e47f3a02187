package clockcheck

import (
	"boardbench/internal/inventory/oppsel"
	"boardbench/internal/note"
	"boardbench/internal/result"
	"boardbench/internal/stats"
)

// TolerancePct is how far a measured clock may be from a reported one
// before the difference is flagged.
const TolerancePct = 2.0

// Report is the result of a clock check; docs/clock.md describes every
// field.
type Report struct {
	SchemaVersion string         `json:"schema_version"`
	Clusters      []ClusterClock `json:"clusters"`
	Notes         note.List      `json:"notes"`
}

// ClusterClock is the measured clock of one cluster (or of one CPU asked
// for explicitly).
type ClusterClock struct {
	// ClockMeasurement holds the fields shared with the result of
	// `boardbench run` (cluster ... spread_pct).
	result.ClockMeasurement
	SampleMs *float64 `json:"sample_ms"`
	Method   string   `json:"method"`
	Certain  bool     `json:"certain"`
	// ReportedMHz is the kernel's clock compared with MeasuredMHz, read
	// from ReportedSource right after measuring.
	ReportedMHz          *float64   `json:"reported_mhz"`
	ReportedSource       string     `json:"reported_source"`
	ScalingCurMHz        *float64   `json:"scaling_cur_mhz"`
	CPUInfoCurMHz        *float64   `json:"cpuinfo_cur_mhz"`
	FirmwareMHz          *float64   `json:"firmware_mhz"`
	DeviationPct         *float64   `json:"deviation_pct"`
	FirmwareDeviationPct *float64   `json:"firmware_deviation_pct"`
	Flagged              bool       `json:"flagged"`
	OPPs                 []OPPClock `json:"opps,omitempty"`
	Error                string     `json:"error,omitempty"`
	// OPPSelection is the PVTM and leakage figures the kernel logged at
	// boot for this cluster, with its voltage selection (info's
	// opp_selection; schema 1.3); nil where the kernel logs none.
	OPPSelection *oppsel.Device `json:"opp_selection,omitempty"`
}

// AddOPPSelection gives every measured cluster its boot-time voltage
// selection from sel (info.opp_selection); when no cluster gets one, sel's
// notes (the kernel log unreadable, or without the lines) become the
// report's.
func (rep *Report) AddOPPSelection(sel *oppsel.Info) {
	if sel == nil {
		return
	}
	found := false
	for i := range rep.Clusters {
		c := &rep.Clusters[i]
		if c.CPU != nil {
			c.OPPSelection = sel.ForCPU(*c.CPU)
			found = found || c.OPPSelection != nil
		}
	}
	if !found {
		for _, n := range sel.Notes {
			rep.Notes.Add("PVTM voltage selection: "+n.Item, n.Reason)
		}
	}
}

// OPPClock is the measured clock at one pinned cpufreq operating point.
type OPPClock struct {
	// OPPMeasurement holds the fields shared with the result of
	// `boardbench run` (requested_mhz ... spread_pct).
	result.OPPMeasurement
	// DisturbedSamples: see ClusterClock.
	DisturbedSamples []float64 `json:"disturbed_samples"`
	DeviationPct     *float64  `json:"deviation_pct"`
	Flagged          bool      `json:"flagged"`
	Error            string    `json:"error,omitempty"`
}

// compare fills the deviations and the flag.
func (c *ClusterClock) compare() {
	c.DeviationPct = deviation(c.MeasuredMHz, c.ReportedMHz)
	c.FirmwareDeviationPct = deviation(c.MeasuredMHz, c.FirmwareMHz)
	c.Flagged = BeyondTolerance(c.DeviationPct) || BeyondTolerance(c.FirmwareDeviationPct)
}

// compare fills the deviation from the kernel's clock after pinning (the
// requested one when the kernel does not say) and the flag.
func (o *OPPClock) compare() {
	ref := o.ReportedMHz
	if ref == nil {
		ref = ptr(o.RequestedMHz)
	}
	o.DeviationPct = deviation(o.MeasuredMHz, ref)
	o.Flagged = BeyondTolerance(o.DeviationPct)
}

func ptr(v float64) *float64 { return &v }

// Round rounds v to the given number of decimal digits.
func Round(v float64, digits int) float64 {
	p := 1.0
	for i := 0; i < digits; i++ {
		p *= 10
	}
	if v < 0 {
		return -float64(int64(-v*p+0.5)) / p
	}
	return float64(int64(v*p+0.5)) / p
}

// deviation returns measured vs reference in percent, rounded, or nil.
func deviation(measured, reference *float64) *float64 {
	if measured == nil || reference == nil || *reference <= 0 {
		return nil
	}
	return ptr(Round(stats.DeviationPct(*measured, *reference), 2))
}

// BeyondTolerance reports whether a deviation is known and beyond
// ±TolerancePct.
func BeyondTolerance(p *float64) bool { return p != nil && (*p > TolerancePct || *p < -TolerancePct) }
