package runtext

import (
	"fmt"
	"strings"

	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// renderThermal writes the findings of a thermal test.
func renderThermal(w *textfmt.Writer, r *result.Result) {
	if r.Summary.ThermalSummary == nil || r.Summary.Thermal == nil {
		if r.Command == "thermal" {
			w.Section("Thermal")
			reason := "nothing measured"
			for _, p := range r.Phases {
				if p.Status == result.PhaseSkipped && p.Reason != "" {
					reason = "skipped: " + p.Reason
					break
				}
			}
			w.Line("%s", reason)
		}
		return
	}
	t := r.Summary.Thermal
	w.Section("Thermal")
	throttle := "none seen"
	if t.TimeToThrottleS != nil {
		throttle = fmt.Sprintf("%.0f s (%s)", *t.TimeToThrottleS, t.ThrottleEvidence)
	} else if t.ThrottleEvidence != "" {
		throttle = t.ThrottleEvidence
	}
	pairs := [][2]string{
		{"temperature", fmt.Sprintf("%s at the start, %s at the peak", num(t.StartTempC, "%.1f °C"), num(t.PeakTempC, "%.1f °C"))},
		{"time to throttle", throttle},
		{"clock cold → sustained", clockPairs(t)},
		{"7-Zip cold → hot", fmt.Sprintf("%s → %s MIPS (%s)", num(t.ColdMIPS, "%.0f"), num(t.HotMIPS, "%.0f"), num(t.HotVsColdPct, "%+.1f%%"))},
		{"settles at", num(t.SettleTempC, "%.1f °C")},
		{"cooling τ", fmt.Sprintf("%s (towards %s, fit rms %s)", num(t.CoolingTimeConstantS, "%.0f s"), num(t.CoolingAsymptoteC, "%.1f °C"), num(t.CoolingFitRMSC, "%.2f °C"))},
	}
	if t.ColdFirmwareMHz != nil {
		pairs = append(pairs, [2]string{"firmware clock cold → sustained", fmt.Sprintf("%s → %s MHz", num(t.ColdFirmwareMHz, "%.0f"), num(t.SustainedFirmwareMHz, "%.0f"))})
	}
	if len(t.ThrottleSpans) > 0 {
		pairs = append(pairs, [2]string{"throttled", throttleSpansText(t.ThrottleSpans)})
	}
	if t.HeatPowerW != nil || t.CoolPowerW != nil {
		pairs = append(pairs, [2]string{"power", fmt.Sprintf("%s under load, %s cooling", num(t.HeatPowerW, "%.2f W"), num(t.CoolPowerW, "%.2f W"))})
	}
	w.KV(pairs...)
	for _, n := range t.Notes {
		w.Line("note: %s", n)
	}
}

func clockPairs(t *result.ThermalResult) string {
	if len(t.ColdClockMHz) == 0 {
		return "unknown (no cpufreq clock sampled)"
	}
	s := ""
	for i := range t.ColdClockMHz {
		if i > 0 {
			s += ", "
		}
		var sus *float64
		if i < len(t.SustainedClockMHz) {
			sus = t.SustainedClockMHz[i]
		}
		s += fmt.Sprintf("cluster %d %s → %s MHz", i, num(t.ColdClockMHz[i], "%.0f"), num(sus, "%.0f"))
	}
	return s
}

func renderThermalHeat(w *textfmt.Writer, f result.ThermalHeatFigures) {
	fmt.Fprintln(w.W)
	w.Line("load: %s on cpu%s; target %s, limit %.0f s; stopped: %s", f.Load, cpusText(f.CPUs), num(f.TargetC, "%.1f °C"), f.LimitS, textfmt.OrUnknown(f.Stop))
	for i, r := range f.Runs {
		w.Line("run %d at %.0f s: %s MIPS in %.1f s %s", i+1, r.StartS, num(r.MIPS, "%.0f"), r.DurationS, r.Error)
	}
}

func renderThermalCool(w *textfmt.Writer, f result.ThermalCoolFigures) {
	fmt.Fprintln(w.W)
	w.Line("target %s, limit %.0f s; stopped: %s", num(f.TargetC, "%.1f °C"), f.LimitS, textfmt.OrUnknown(f.Stop))
}

func cpusText(c []int) string {
	if len(c) == 0 {
		return "-"
	}
	return fmt.Sprint(c)
}

// throttleSpansText lists the throttled stretches: "900–1200 s (firmware
// clock, get_throttled; firmware down to 700 MHz); 1300 s–end (…)", the
// first six.
func throttleSpansText(spans []result.ThrottleSpan) string {
	const shown = 6
	var parts []string
	for i, sp := range spans {
		if i == shown {
			parts = append(parts, fmt.Sprintf("and %d more", len(spans)-shown))
			break
		}
		when := fmt.Sprintf("%.0f s–end", sp.StartS)
		if sp.EndS != nil {
			when = fmt.Sprintf("%.0f–%.0f s", sp.StartS, *sp.EndS)
		}
		detail := strings.Join(sp.Signals, ", ")
		if sp.LowestFirmwareMHz != nil {
			detail += fmt.Sprintf("; firmware down to %.0f MHz", *sp.LowestFirmwareMHz)
		}
		if sp.LowestClockMHz != nil {
			detail += fmt.Sprintf("; cpufreq down to %.0f MHz", *sp.LowestClockMHz)
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", when, detail))
	}
	return strings.Join(parts, "; ")
}
