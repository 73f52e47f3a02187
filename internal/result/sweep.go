package result

import (
	"encoding/json"
	"math"
	"slices"
)

// Phase names of `boardbench sweep`: one 7-Zip measurement at one clock,
// single-threaded on one CPU of a cluster or multi-threaded on its CPUs.
const (
	PhaseSweepSingle = "sweep-single"
	PhaseSweepMulti  = "sweep-multi"
)

// SweepFigures are the figures of one sweep phase: the clock asked for,
// the clocks the kernel and firmware report and the one measured, the core
// voltage, and the 7-Zip run at that clock.
type SweepFigures struct {
	// Policy is the cpufreq policy pinned; nil without cpufreq.
	Policy *int `json:"policy"`
	// RequestedMHz is the OPP pinned; nil without cpufreq (the one clock
	// the machine runs at).
	RequestedMHz *float64 `json:"requested_mhz"`
	// ReportedMHz is the clock cpufreq reported at the start of the
	// measurement (scaling_cur_freq); nil when unknown.
	ReportedMHz *float64 `json:"reported_mhz"`
	// FirmwareMHz is the ARM clock the Raspberry Pi firmware reported; nil
	// without such a firmware.
	FirmwareMHz *float64 `json:"firmware_mhz,omitempty"`
	// MeasuredMHz is the clock measured with a loop of known cycle count on
	// the single-threaded CPU; nil when it could not be measured.
	MeasuredMHz *float64 `json:"measured_mhz"`
	// CoreVolts is the core voltage at this clock, VoltsSource where it was
	// read (a regulator's microvolts file or vcgencmd); nil when unreadable.
	CoreVolts   *float64 `json:"core_volts"`
	VoltsSource string   `json:"volts_source,omitempty"`
	// SevenZip is the 7-Zip measurement at this clock.
	SevenZip SevenZipFigures `json:"sevenzip"`
	// Notes say why a figure is unknown.
	Notes []string `json:"notes,omitempty"`
}

// SweepRow is one measurement of a sweep in the summary: null where
// unknown. MIPSPerW is MIPS divided by the phase's mean power.
type SweepRow struct {
	Policy      *int     `json:"policy"`
	CPUs        []int    `json:"cpus"`
	ReportedMHz *float64 `json:"reported_mhz"`
	// RequestedMHz is the OPP pinned (nil without cpufreq).
	RequestedMHz *float64 `json:"requested_mhz"`
	FirmwareMHz  *float64 `json:"firmware_mhz,omitempty"`
	MeasuredMHz  *float64 `json:"measured_mhz"`
	Threads      int      `json:"threads"`
	MIPS         *float64 `json:"mips"`
	// TempC is the highest SoC temperature the monitor saw in the phase.
	TempC *float64 `json:"temp_c"`
	// PowerW is the phase's mean power from the power source.
	PowerW    *float64 `json:"power_w"`
	MIPSPerW  *float64 `json:"mips_per_w"`
	CoreVolts *float64 `json:"core_volts,omitempty"`
	// Disturbed is true when the step was measured under disturbance
	// (SweepStepDisturbed): MIPS, MeasuredMHz and MIPSPerW are then null,
	// what they read is in Summary.Excluded, and Reason says why (schema
	// 1.1).
	Disturbed bool   `json:"disturbed,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

// SweepStepDisturbed reports whether a sweep step's figures are not
// figures, and why: its phase was judged disturbed, or 7-Zip's own usage
// shows that it did not get its CPUs.
func SweepStepDisturbed(p Phase, f SweepFigures) (bool, string) {
	if p.IsDisturbed() {
		return true, phaseReason(p)
	}
	if low := f.SevenZip.LowUsageRuns(); len(low) > 0 {
		return true, usageReason(low[0])
	}
	return false, ""
}

// SweepSummary holds the rows of `boardbench sweep`; it is embedded in
// Summary, whose JSON gains "sweep" only for a sweep.
type SweepSummary struct {
	Sweep []SweepRow `json:"sweep"`
}

// BuildSweepSummary computes the sweep rows from the phases, in order;
// phases without figures are passed over.
func BuildSweepSummary(phases []Phase) *SweepSummary {
	s := &SweepSummary{Sweep: []SweepRow{}}
	for _, p := range phases {
		if (p.Name != PhaseSweepSingle && p.Name != PhaseSweepMulti) || len(p.Figures) == 0 {
			continue
		}
		var f SweepFigures
		if json.Unmarshal(p.Figures, &f) != nil {
			continue
		}
		row := SweepRow{
			Policy: f.Policy, CPUs: f.SevenZip.CPUs, ReportedMHz: f.ReportedMHz, RequestedMHz: f.RequestedMHz,
			FirmwareMHz: f.FirmwareMHz, MeasuredMHz: f.MeasuredMHz, Threads: f.SevenZip.Threads,
			MIPS: f.SevenZip.TotMIPS, TempC: MaxTempC(p.Samples), PowerW: p.PowerW, CoreVolts: f.CoreVolts,
		}
		if row.CPUs == nil {
			row.CPUs = []int{}
		}
		if bad, why := SweepStepDisturbed(p, f); bad {
			row.Disturbed, row.Reason = true, why
			row.MIPS, row.MeasuredMHz = nil, nil
		}
		row.MIPSPerW = MIPSPerWatt(row.MIPS, row.PowerW)
		s.Sweep = append(s.Sweep, row)
	}
	return s
}

// MIPSPerWatt divides a 7-Zip rating by a power; nil when either is unknown
// or the power is not positive. It is rounded to 0.1.
func MIPSPerWatt(mips, watts *float64) *float64 {
	if mips == nil || watts == nil || *watts <= 0 || math.IsNaN(*watts) {
		return nil
	}
	v := math.Round(*mips / *watts * 10) / 10
	return &v
}

// MaxTempC returns the highest temperature of the samples; nil without one.
func MaxTempC(samples []Sample) *float64 {
	var temps []float64
	for _, s := range samples {
		if s.TempC != nil {
			temps = append(temps, *s.TempC)
		}
	}
	if len(temps) == 0 {
		return nil
	}
	v := slices.Max(temps)
	return &v
}
