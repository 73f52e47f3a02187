package compare

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/result"
)

// sweepKey names one sweep row across results: its cpufreq policy, the
// clock it pinned and its thread count. Two sweeps of the same board (bare,
// with a heatsink, in an enclosure) have the same policies and clocks, so
// their rows line up clock by clock whatever the order or the number of
// clocks each measured.
type sweepKey struct {
	policy  int // -1: no policy
	mhz     float64
	threads int
}

// sweepKeyOf returns the row's key: the clock pinned, else (a machine
// without cpufreq) the one cpufreq reported; ok is false for a row with
// neither.
func sweepKeyOf(row result.SweepRow) (sweepKey, bool) {
	k := sweepKey{policy: -1, threads: row.Threads}
	if row.Policy != nil {
		k.policy = *row.Policy
	}
	switch {
	case row.RequestedMHz != nil:
		k.mhz = *row.RequestedMHz
	case row.ReportedMHz != nil:
		k.mhz = *row.ReportedMHz
	default:
		return k, false
	}
	return k, true
}

// id is the key as it appears in a figure's key.
func (k sweepKey) id() string {
	pol := "policy?"
	if k.policy >= 0 {
		pol = "policy" + strconv.Itoa(k.policy)
	}
	return fmt.Sprintf("%s/%sMHz/%dt", pol, strconv.FormatFloat(k.mhz, 'f', -1, 64), k.threads)
}

// label is the key as a row label reads it.
func (k sweepKey) label() string {
	s := fmt.Sprintf("%s MHz", strconv.FormatFloat(k.mhz, 'f', -1, 64))
	if k.policy >= 0 {
		s += fmt.Sprintf(" policy%d", k.policy)
	}
	return s + ", " + map[bool]string{true: "1 thread", false: strconv.Itoa(k.threads) + " threads"}[k.threads == 1]
}

// sweepFigureDefs are the figures of a sweep row compare shows.
var sweepFigureDefs = []struct {
	key, name, unit string
	of              func(result.SweepRow) *float64
}{
	{"mips", "7-Zip", "MIPS", func(r result.SweepRow) *float64 { return r.MIPS }},
	{"measured_mhz", "clock measured", "MHz", func(r result.SweepRow) *float64 { return r.MeasuredMHz }},
	{"temp_c", "temperature", "°C", func(r result.SweepRow) *float64 { return r.TempC }},
	{"power_w", "power", "W", func(r result.SweepRow) *float64 { return r.PowerW }},
	{"mips_per_w", "efficiency", "MIPS/W", func(r result.SweepRow) *float64 { return r.MIPSPerW }},
}

// sweepRows indexes each input's sweep rows by key, and lists the keys of
// every input: by policy, then thread count, then clock from the highest.
func sweepRows(in []Input) ([]map[sweepKey]result.SweepRow, []sweepKey) {
	rows := make([]map[sweepKey]result.SweepRow, len(in))
	var keys []sweepKey
	for i, x := range in {
		rows[i] = map[sweepKey]result.SweepRow{}
		if x.Result.Summary.SweepSummary == nil {
			continue
		}
		for _, row := range x.Result.Summary.Sweep {
			k, ok := sweepKeyOf(row)
			if !ok {
				continue
			}
			if _, dup := rows[i][k]; dup {
				continue // the first row of a clock measured twice
			}
			rows[i][k] = row
			if !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	slices.SortFunc(keys, func(a, b sweepKey) int {
		return cmp.Or(cmp.Compare(a.policy, b.policy), cmp.Compare(a.threads, b.threads), cmp.Compare(b.mhz, a.mhz))
	})
	return rows, keys
}

// sweepFigures are the figures of the inputs' sweeps, matched by clock
// (sweepKey), never by position: per clock and thread count the MIPS (with
// the spread of its passes, (max − min) / mean), the measured clock, the
// temperature, the power and the efficiency, each where a result has it. A
// clock only some results measured has a value in their columns only.
func sweepFigures(in []Input) []Figure {
	rows, keys := sweepRows(in)
	n := len(in)
	var out []Figure
	for _, k := range keys {
		for _, d := range sweepFigureDefs {
			f := Figure{Key: "sweep." + d.key + "/" + k.id(), Name: "sweep " + k.label() + ": " + d.name, Unit: d.unit,
				Values: make([]*float64, n), SpreadPct: make([]*float64, n)}
			for i := range in {
				row, ok := rows[i][k]
				if !ok {
					continue
				}
				f.Values[i] = d.of(row)
				if d.key == "mips" {
					f.SpreadPct[i] = passSpread(row)
				}
			}
			if anyValue(f.Values) {
				out = append(out, f)
			}
		}
	}
	return out
}

// passSpread is the spread of a sweep row's passes, (max − min) / mean in
// percent; nil for a row of fewer than two counted passes.
func passSpread(row result.SweepRow) *float64 {
	if row.MIPS == nil || row.MIPSMin == nil || row.MIPSMax == nil || *row.MIPS <= 0 || row.Passes-len(row.DisturbedPasses) < 2 {
		return nil
	}
	v := math.Round((*row.MIPSMax-*row.MIPSMin) / *row.MIPS * 100 * 100) / 100
	return &v
}

// sweepNotes say which swept clocks only some of the results measured.
func sweepNotes(in []Input) []string {
	rows, keys := sweepRows(in)
	swept := 0
	for i := range in {
		if in[i].Result.Summary.SweepSummary != nil {
			swept++
		}
	}
	if swept < 2 {
		return nil
	}
	var notes []string
	for _, k := range keys {
		var have []string
		for i, x := range in {
			if _, ok := rows[i][k]; ok {
				have = append(have, x.Label)
			}
		}
		if len(have) < swept {
			notes = append(notes, fmt.Sprintf("sweep %s: measured only in %s", k.label(), strings.Join(have, ", ")))
		}
	}
	return notes
}
