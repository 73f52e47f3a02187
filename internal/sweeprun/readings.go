package sweeprun

import (
	"context"
	"fmt"
	"math"
	"path"
	"strconv"
	"strings"

	"boardbench/internal/clockcheck"
	probeclock "boardbench/internal/probe/clock"
	"boardbench/internal/result"
)

// reportedMHz reads the clock cpufreq reports for cpu now.
func (s *sweeper) reportedMHz(cpu int, figs *result.SweepFigures) *float64 {
	dir := fmt.Sprintf("/sys/devices/system/cpu/cpu%d/cpufreq/", cpu)
	for _, f := range []string{"scaling_cur_freq", "cpuinfo_cur_freq"} {
		if v, err := s.h.ReadInt(dir + f); err == nil && v > 0 {
			mhz := float64(v) / 1000
			return &mhz
		}
	}
	if figs.RequestedMHz != nil {
		figs.Notes = append(figs.Notes, "reported clock: cpufreq's current clock is not readable")
	}
	return nil
}

// firmwareMHz asks the Raspberry Pi firmware for the ARM clock; nil
// without vcgencmd or on a machine of several clusters (the firmware has one
// ARM clock).
func (s *sweeper) firmwareMHz(ctx context.Context) *float64 {
	if !s.h.HasCommand("vcgencmd") || len(s.info.CPU.Clusters) > 1 {
		return nil
	}
	out, err := s.h.Run(ctx, "vcgencmd", "measure_clock", "arm")
	if err != nil {
		return nil
	}
	if mhz, ok := clockcheck.ParseFirmwareClock(string(out)); ok {
		mhz = math.Round(mhz)
		return &mhz
	}
	return nil
}

// coreVolts reads the CPU core voltage: the Raspberry Pi firmware's
// "core" rail, else the one regulator whose name says it feeds the CPUs.
func (s *sweeper) coreVolts(ctx context.Context, figs *result.SweepFigures) (*float64, string) {
	if s.h.HasCommand("vcgencmd") {
		if out, err := s.h.Run(ctx, "vcgencmd", "measure_volts", "core"); err == nil {
			if v, ok := ParseFirmwareVolts(string(out)); ok {
				return &v, "vcgencmd measure_volts core"
			}
		}
	}
	ents, err := s.h.ReadDir("/sys/class/regulator")
	if err != nil {
		return nil, ""
	}
	var found []string
	for _, e := range ents {
		dir := path.Join("/sys/class/regulator", e.Name)
		name, err := s.h.ReadString(dir + "/name")
		if err != nil || !IsCPURegulator(strings.TrimSpace(name)) {
			continue
		}
		found = append(found, dir)
	}
	if len(found) != 1 {
		if len(found) > 1 {
			figs.Notes = append(figs.Notes, "core voltage: several CPU regulators, not told apart")
		}
		return nil, ""
	}
	uv, err := s.h.ReadInt(found[0] + "/microvolts")
	if err != nil || uv <= 0 || uv > 5_000_000 {
		return nil, ""
	}
	v := float64(uv) / 1e6
	return &v, found[0] + "/microvolts"
}

// IsCPURegulator recognises a regulator that feeds CPU cores by its name
// (vdd_cpu, vdd-arm, cpu-supply, vdd_core_a53...).
func IsCPURegulator(name string) bool {
	n := strings.ToLower(name)
	return strings.Contains(n, "cpu") || strings.Contains(n, "vdd_arm") || strings.Contains(n, "vdd-arm")
}

// ParseFirmwareVolts reads vcgencmd's "volt=1.2375V".
func ParseFirmwareVolts(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	v, ok := strings.CutPrefix(s, "volt=")
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(strings.TrimSuffix(v, "V"), 64)
	if err != nil || f <= 0 || f > 5 {
		return 0, false
	}
	return f, true
}

// measureClock measures the real clock of cpu; nil with a note when it
// cannot (a recorded root, a CPU that cannot be pinned).
func (s *sweeper) measureClock(ctx context.Context, cpu int, figs *result.SweepFigures) *float64 {
	if s.cfg.Clock == nil {
		figs.Notes = append(figs.Notes, "measured clock: not measured on a recorded machine")
		return nil
	}
	res, err := s.cfg.Clock(ctx, cpu, probeclock.Options{Samples: 5})
	if err != nil {
		if ctx.Err() == nil {
			figs.Notes = append(figs.Notes, "measured clock: "+err.Error())
		}
		return nil
	}
	v := math.Round(res.MHz)
	return &v
}

// Summarize is the summary of a sweep: the usual headline figures (empty
// for a sweep) and one row per measurement.
func Summarize(phases []result.Phase) result.Summary {
	s := result.BuildSummary(phases)
	s.SweepSummary = result.BuildSweepSummary(phases)
	return s
}
