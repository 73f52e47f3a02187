package runtext

import (
	"encoding/json"
	"fmt"
	"strings"

	"boardbench/internal/power"
	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// renderPowerSource writes the power source of a result and its idle
// baseline, when it has one.
func renderPowerSource(w *textfmt.Writer, r *result.Result) {
	p := r.Power
	if p == nil {
		return
	}
	w.Section("Power")
	pairs := [][2]string{{"source", p.Source + ": " + p.Description}, {"measures", measuresWords(p.Measures)}}
	if p.Reason != "" {
		pairs = append(pairs, [2]string{"chosen because", p.Reason})
	}
	if p.LimitW != nil {
		pairs = append(pairs, [2]string{"supply limit", fmt.Sprintf("%.1f W (not a measurement)", *p.LimitW)})
	}
	if p.Idle != nil {
		idle := "n/a (no reading)"
		if p.Idle.PowerW != nil {
			idle = fmt.Sprintf("%.3f W over %s (%s)", *p.Idle.PowerW, duration(p.Idle.DurationS), p.Idle.Basis)
		}
		pairs = append(pairs, [2]string{"idle", idle})
	}
	if p.Readings+p.Missing > 0 {
		rd := fmt.Sprintf("%d good, %d missing", p.Readings, p.Missing)
		if len(p.Errors) > 0 {
			rd += " (" + strings.Join(p.Errors, "; ") + ")"
		}
		pairs = append(pairs, [2]string{"readings", rd})
	}
	for _, n := range p.Notes {
		pairs = append(pairs, [2]string{"note", n})
	}
	w.KV(pairs...)
}

// powerPairs are a phase's power lines: mean watts and energy, and MIPS/W
// for a 7-Zip phase.
func powerPairs(p result.Phase) [][2]string {
	if p.PowerW == nil {
		return nil
	}
	v := fmt.Sprintf("%.3f W", *p.PowerW)
	if p.EnergyWh != nil {
		v += fmt.Sprintf(", %.4f Wh", *p.EnergyWh)
	}
	if p.PowerBasis != "" {
		v += " (" + p.PowerBasis + ")"
	}
	pairs := [][2]string{{"power", v}}
	if mpw, ok := sevenZipMIPSPerWatt(p); ok {
		pairs = append(pairs, [2]string{"MIPS/W", fmt.Sprintf("%.0f", mpw)})
	}
	return pairs
}

// sevenZipMIPSPerWatt is a 7-Zip phase's mean total rating over its mean
// power.
func sevenZipMIPSPerWatt(p result.Phase) (float64, bool) {
	switch p.Name {
	case result.PhaseSevenZipSingle, result.PhaseSevenZipMulti, result.PhaseSevenZipCluster:
	default:
		return 0, false
	}
	if p.PowerW == nil || len(p.Figures) == 0 {
		return 0, false
	}
	var f result.SevenZipFigures
	if err := json.Unmarshal(p.Figures, &f); err != nil || f.TotMIPS == nil {
		return 0, false
	}
	return power.MIPSPerWatt(*f.TotMIPS, *p.PowerW)
}

func measuresWords(m string) string {
	switch m {
	case power.MeasuresWall:
		return "at the wall (power supply and cable included)"
	case power.MeasuresBoard:
		return "the board's input"
	case power.MeasuresSoC:
		return "the SoC side, not the wall"
	case power.MeasuresLimit:
		return "a supply limit, not a measurement"
	}
	return "depends on the meter"
}
