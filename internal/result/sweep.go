package result

import (
	"encoding/json"
	"fmt"
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
	// Pass is this measurement's number among the passes at the same
	// clock and thread count, from 1 (schema 1.2; 0 in older results,
	// whose every phase is a row of its own).
	Pass int `json:"pass,omitempty"`
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
	// TempC is the highest SoC temperature the monitor saw in the row's
	// passes.
	TempC *float64 `json:"temp_c"`
	// PowerW is the phase's mean power from the power source.
	PowerW    *float64 `json:"power_w"`
	MIPSPerW  *float64 `json:"mips_per_w"`
	CoreVolts *float64 `json:"core_volts,omitempty"`
	// Disturbed is true when every pass of the row was measured under
	// disturbance (SweepStepDisturbed): MIPS, MeasuredMHz and MIPSPerW are
	// then null, what they read is in Summary.Excluded, and Reason says why
	// (schema 1.1). Reason is also set when only some passes were set
	// aside (DisturbedPasses).
	Disturbed bool   `json:"disturbed,omitempty"`
	Reason    string `json:"reason,omitempty"`
	// Passes is the number of passes measured at this clock and thread
	// count (phases with figures); MIPS is the mean of those that count:
	// not disturbed, with a rating (schema 1.2).
	Passes int `json:"passes,omitempty"`
	// DisturbedPasses are the numbers of the passes set aside as
	// disturbed (schema 1.2).
	DisturbedPasses []int `json:"disturbed_passes,omitempty"`
	// MIPSMin and MIPSMax are the lowest and highest rating of the passes
	// that count: the spread behind MIPS (schema 1.2; null without one).
	MIPSMin *float64 `json:"mips_min,omitempty"`
	MIPSMax *float64 `json:"mips_max,omitempty"`
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

// sweepPass is one sweep phase with its figures.
type sweepPass struct {
	phase Phase
	figs  SweepFigures
}

// sweepPasses groups the sweep phases with figures into rows, in order: a
// phase joins the row before it when it measured the same policy, clock
// and CPUs with a higher pass number (SweepFigures.Pass), else it starts a
// row. Results before schema 1.2 (no pass numbers) get one row per phase.
func sweepPasses(phases []Phase) [][]sweepPass {
	var rows [][]sweepPass
	for _, p := range phases {
		if (p.Name != PhaseSweepSingle && p.Name != PhaseSweepMulti) || len(p.Figures) == 0 {
			continue
		}
		var f SweepFigures
		if json.Unmarshal(p.Figures, &f) != nil {
			continue
		}
		cur := sweepPass{p, f}
		if n := len(rows); n > 0 {
			last := rows[n-1][len(rows[n-1])-1]
			if f.Pass > 1 && f.Pass > last.figs.Pass && samePassKey(last, cur) {
				rows[n-1] = append(rows[n-1], cur)
				continue
			}
		}
		rows = append(rows, []sweepPass{cur})
	}
	return rows
}

// samePassKey reports whether two passes measured the same thing: the
// same phase, policy, requested clock and CPUs.
func samePassKey(a, b sweepPass) bool {
	return a.phase.Name == b.phase.Name && eqIntPtr(a.figs.Policy, b.figs.Policy) &&
		eqFloatPtr(a.figs.RequestedMHz, b.figs.RequestedMHz) && slices.Equal(a.figs.SevenZip.CPUs, b.figs.SevenZip.CPUs)
}

func eqIntPtr(a, b *int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func eqFloatPtr(a, b *float64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// passNumber is a pass's number for ExcludedFigure.Run: 0 in a result
// without pass numbers.
func passNumber(p sweepPass) int { return p.figs.Pass }

// BuildSweepSummary computes the sweep rows from the phases, one row per
// clock and thread count (sweepPasses), in order; phases without figures
// are passed over. A row's MIPS is the mean of its passes that count (not
// disturbed, with a rating), MIPSMin/MIPSMax their range; its measured,
// reported and firmware clocks and core voltage are the means of the same
// passes (of every pass where none counts, for the clocks cpufreq and the
// firmware report and the voltage); its temperature the highest of every
// pass; its power the duration-weighted mean of the counted passes'.
func BuildSweepSummary(phases []Phase) *SweepSummary {
	s := &SweepSummary{Sweep: []SweepRow{}}
	for _, passes := range sweepPasses(phases) {
		f0 := passes[0].figs
		row := SweepRow{
			Policy: f0.Policy, CPUs: f0.SevenZip.CPUs, RequestedMHz: f0.RequestedMHz,
			Threads: f0.SevenZip.Threads, Passes: len(passes),
		}
		if row.CPUs == nil {
			row.CPUs = []int{}
		}
		var counted []sweepPass
		var mips []float64
		for _, ps := range passes {
			if bad, why := SweepStepDisturbed(ps.phase, ps.figs); bad {
				row.DisturbedPasses = append(row.DisturbedPasses, max(1, ps.figs.Pass))
				if row.Reason == "" {
					row.Reason = why
				}
				continue
			}
			counted = append(counted, ps)
			if ps.figs.SevenZip.TotMIPS != nil {
				mips = append(mips, *ps.figs.SevenZip.TotMIPS)
			}
		}
		if len(counted) == 0 {
			row.Disturbed = true
		}
		for _, ps := range passes {
			if t := MaxTempC(ps.phase.Samples); t != nil && (row.TempC == nil || *t > *row.TempC) {
				row.TempC = t
			}
		}
		if len(mips) > 0 {
			row.MIPS = meanOf(mips, 10)
			lo, hi := slices.Min(mips), slices.Max(mips)
			row.MIPSMin, row.MIPSMax = &lo, &hi
		}
		basis := counted
		if len(basis) == 0 {
			basis = passes
		}
		row.ReportedMHz = meanField(basis, func(f SweepFigures) *float64 { return f.ReportedMHz }, 1)
		row.FirmwareMHz = meanField(basis, func(f SweepFigures) *float64 { return f.FirmwareMHz }, 1)
		row.CoreVolts = meanField(basis, func(f SweepFigures) *float64 { return f.CoreVolts }, 10000)
		row.MeasuredMHz = meanField(counted, func(f SweepFigures) *float64 { return f.MeasuredMHz }, 1)
		row.PowerW = meanPower(counted)
		row.MIPSPerW = MIPSPerWatt(row.MIPS, row.PowerW)
		s.Sweep = append(s.Sweep, row)
	}
	return s
}

// sweepExcluded lists the figures of the sweep passes set aside as
// disturbed (Run is the pass number); Lost when no pass of the row
// counts, so that the row lost its figure.
func sweepExcluded(phases []Phase) []ExcludedFigure {
	var out []ExcludedFigure
	for _, passes := range sweepPasses(phases) {
		var ex []ExcludedFigure
		counted := 0
		for _, ps := range passes {
			bad, why := SweepStepDisturbed(ps.phase, ps.figs)
			if !bad {
				counted++
				continue
			}
			at := ""
			if ps.figs.RequestedMHz != nil {
				at = fmt.Sprintf("at %.0f MHz: ", *ps.figs.RequestedMHz)
			}
			if ps.figs.SevenZip.TotMIPS != nil {
				ex = append(ex, ExcludedFigure{Figure: "sweep.mips", Phase: ps.phase.Name, Run: passNumber(ps), Measured: *ps.figs.SevenZip.TotMIPS, Reason: at + why})
			}
			if ps.figs.MeasuredMHz != nil {
				ex = append(ex, ExcludedFigure{Figure: "sweep.measured_mhz", Phase: ps.phase.Name, Run: passNumber(ps), Measured: *ps.figs.MeasuredMHz, Reason: at + why})
			}
		}
		for i := range ex {
			ex[i].Lost = counted == 0
		}
		out = append(out, ex...)
	}
	return out
}

// meanOf is the mean of vs rounded to 1/scale.
func meanOf(vs []float64, scale float64) *float64 {
	var sum float64
	for _, v := range vs {
		sum += v
	}
	m := math.Round(sum/float64(len(vs))*scale) / scale
	return &m
}

// meanField is the mean of one figure over the passes that have it,
// rounded to 1/scale; nil when none has it.
func meanField(passes []sweepPass, of func(SweepFigures) *float64, scale float64) *float64 {
	var vs []float64
	for _, ps := range passes {
		if v := of(ps.figs); v != nil {
			vs = append(vs, *v)
		}
	}
	if len(vs) == 0 {
		return nil
	}
	if len(vs) == 1 {
		v := vs[0]
		return &v
	}
	return meanOf(vs, scale)
}

// meanPower is the mean power of the passes, weighted by their durations
// (a plain mean when a duration is unknown); nil when a pass has no power.
func meanPower(passes []sweepPass) *float64 {
	if len(passes) == 0 {
		return nil
	}
	if len(passes) == 1 {
		return passes[0].phase.PowerW
	}
	var sum, weights float64
	weighted := true
	for _, ps := range passes {
		if ps.phase.PowerW == nil {
			return nil
		}
		if ps.phase.DurationS <= 0 {
			weighted = false
		}
	}
	for _, ps := range passes {
		w := 1.0
		if weighted {
			w = ps.phase.DurationS
		}
		sum += *ps.phase.PowerW * w
		weights += w
	}
	v := math.Round(sum/weights*1000) / 1000
	return &v
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
