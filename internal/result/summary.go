package result

import (
	"encoding/json"
	"fmt"
	"math"
)

// BuildSummary computes the headline figures from the phases: the measured
// clock per cluster (first clock phase; a cluster whose samples were all
// disturbed is set apart), 7-Zip multi-threaded (the mean of the valid
// runs, each run, and the mean of all runs), 7-Zip single-threaded,
// AES-256-CBC at 16 KiB, memcpy and memset per core type. A figure of a
// phase judged disturbed (Phase.Judgement), or of a 7-Zip run whose own
// CPU usage shows it did not get its CPUs, is not a headline figure: it
// goes to Excluded, and a headline left without a valid figure is null
// with a HeadlineNotes entry. Phases without figures are passed over;
// Valid and Verdict are left to validation.
func BuildSummary(phases []Phase) Summary {
	s := Summary{
		ClockMHz: []Value{}, ClockAllDisturbed: []Value{}, SevenZipMultiRuns: []float64{},
		SevenZipMultiDisturbedRuns: []int{}, SevenZipSingleMIPS: []Value{}, SevenZipSingleDisturbedCPUs: []int{},
		AES256At16K: []Value{}, MemcpyMBs: []Value{}, MemsetMBs: []Value{},
	}
	clockDone := false
	exclude := func(fig string, p Phase, cpu *int, run int, v float64, reason string) {
		s.Excluded = append(s.Excluded, ExcludedFigure{Figure: fig, Phase: p.Name, CPU: cpu, Run: run, Measured: v, Reason: reason, Lost: true})
	}
	for _, p := range phases {
		if len(p.Figures) == 0 {
			continue
		}
		disturbed := p.IsDisturbed()
		switch p.Name {
		case PhaseClock:
			var f ClockFigures
			if clockDone || json.Unmarshal(p.Figures, &f) != nil {
				continue
			}
			clockDone = true
			for _, c := range f.Clusters {
				if c.CPU == nil || c.MeasuredMHz == nil {
					continue
				}
				v := Value{CPU: *c.CPU, Core: c.Core, Value: *c.MeasuredMHz}
				if c.AllDisturbed() {
					s.ClockAllDisturbed = append(s.ClockAllDisturbed, v)
					exclude("clock_mhz", p, intPtr(*c.CPU), 0, v.Value, fmt.Sprintf("all %d clock samples were disturbed by other tasks", len(c.Samples)))
				} else {
					s.ClockMHz = append(s.ClockMHz, v)
				}
			}
		case PhaseSevenZipMulti:
			var f SevenZipFigures
			if json.Unmarshal(p.Figures, &f) != nil {
				continue
			}
			for _, r := range f.Runs {
				if r.TotMIPS != nil {
					s.SevenZipMultiRuns = append(s.SevenZipMultiRuns, *r.TotMIPS)
				}
			}
			setMulti(&s, p, f)
		case PhaseSevenZipSingle:
			var f SevenZipFigures
			if json.Unmarshal(p.Figures, &f) != nil || f.TotMIPS == nil || len(f.CPUs) == 0 {
				continue
			}
			v := Value{CPU: f.CPUs[0], Core: f.Core, Value: *f.TotMIPS}
			low := f.LowUsageRuns()
			switch {
			case disturbed:
				exclude("sevenzip_single_mips", p, intPtr(v.CPU), 0, v.Value, phaseReason(p))
				s.SevenZipSingleDisturbedCPUs = append(s.SevenZipSingleDisturbedCPUs, v.CPU)
			case len(low) > 0:
				exclude("sevenzip_single_mips", p, intPtr(v.CPU), 0, v.Value, usageReason(low[0]))
				s.SevenZipSingleDisturbedCPUs = append(s.SevenZipSingleDisturbedCPUs, v.CPU)
			default:
				s.SevenZipSingleMIPS = append(s.SevenZipSingleMIPS, v)
			}
		case PhaseOpenSSL:
			var f OpenSSLFigures
			if json.Unmarshal(p.Figures, &f) != nil || len(f.CPUs) == 0 {
				continue
			}
			if v := f.KBs("aes-256-cbc", 16384); v != nil {
				if disturbed {
					exclude("aes256_16k", p, intPtr(f.CPUs[0]), 0, *v, phaseReason(p))
				} else {
					s.AES256At16K = append(s.AES256At16K, Value{CPU: f.CPUs[0], Core: f.Core, Value: *v})
				}
			}
		case PhaseMemory:
			var f MemFigures
			if json.Unmarshal(p.Figures, &f) != nil {
				continue
			}
			for _, m := range []struct {
				name string
				v    *float64
				to   *[]Value
			}{{"memcpy_mb_s", f.MemcpyMBs, &s.MemcpyMBs}, {"memset_mb_s", f.MemsetMBs, &s.MemsetMBs}} {
				switch {
				case m.v == nil:
				case disturbed:
					exclude(m.name, p, intPtr(f.CPU), 0, *m.v, phaseReason(p))
				default:
					*m.to = append(*m.to, Value{CPU: f.CPU, Core: f.Core, Value: *m.v})
				}
			}
		}
	}
	s.Workloads = buildWorkloads(phases)
	// Sweep passes set aside: lost only when no pass of their row counts.
	s.Excluded = append(s.Excluded, sweepExcluded(phases)...)
	lists := map[string]int{"clock_mhz": len(s.ClockMHz), "sevenzip_single_mips": len(s.SevenZipSingleMIPS),
		"aes256_16k": len(s.AES256At16K), "memcpy_mb_s": len(s.MemcpyMBs), "memset_mb_s": len(s.MemsetMBs)}
	noted := map[string]bool{}
	for _, e := range s.Excluded {
		if n, ok := lists[e.Figure]; ok && n == 0 && !noted[e.Figure] {
			noted[e.Figure] = true
			s.HeadlineNotes = append(s.HeadlineNotes, HeadlineNote{Figure: e.Figure, Reason: "no valid measurement: " + e.Reason})
		}
	}
	return s
}

func intPtr(v int) *int { return &v }

// usageReason words why a 7-Zip run's own usage disqualifies it.
func usageReason(r LowUsageRun) string {
	return fmt.Sprintf("7-Zip's own CPU usage was %.0f%% of the %.0f%% it was given", r.UsagePct, r.ExpectedPct)
}

// setMulti fills the multi-threaded headline from the phase's runs: the
// runs that 7-Zip's own usage or the phase's judgement shows as disturbed
// are excluded; the headline is the mean of the others, null with a note
// when none is left.
func setMulti(s *Summary, p Phase, f SevenZipFigures) {
	s.SevenZipMultiDisturbedRuns = []int{}
	s.SevenZipMultiMIPS, s.SevenZipMultiMIPSUndisturbed, s.SevenZipMultiBasis = nil, nil, ""
	s.SevenZipMultiMIPSAllRuns, _ = MeanAndDrift(f.Runs)
	if s.SevenZipMultiMIPSAllRuns == nil {
		return
	}
	reasons := map[int]string{}
	if p.IsDisturbed() {
		for i, r := range f.Runs {
			if r.TotMIPS != nil {
				reasons[i+1] = phaseReason(p)
			}
		}
	} else {
		for _, r := range f.LowUsageRuns() {
			reasons[r.Run] = usageReason(r)
		}
	}
	var clean []SevenZipRun
	var excluded []ExcludedFigure
	for i, r := range f.Runs {
		if why, ok := reasons[i+1]; ok {
			s.SevenZipMultiDisturbedRuns = append(s.SevenZipMultiDisturbedRuns, i+1)
			excluded = append(excluded, ExcludedFigure{Figure: "sevenzip_multi_mips", Phase: p.Name, Run: i + 1, Measured: *r.TotMIPS, Reason: why})
			continue
		}
		clean = append(clean, r)
	}
	s.SevenZipMultiMIPS, _ = MeanAndDrift(clean)
	s.SevenZipMultiMIPSUndisturbed = s.SevenZipMultiMIPS
	s.SevenZipMultiBasis = BasisAllRuns
	if len(excluded) > 0 {
		s.SevenZipMultiBasis = BasisUndisturbedRuns
	}
	if s.SevenZipMultiMIPS == nil {
		for i := range excluded {
			excluded[i].Lost = true
		}
		s.HeadlineNotes = append(s.HeadlineNotes, HeadlineNote{Figure: "sevenzip_multi_mips",
			Reason: fmt.Sprintf("every multi-threaded 7-Zip run was disturbed (%s)", excluded[0].Reason)})
	}
	s.Excluded = append(s.Excluded, excluded...)
}

// MeanAndDrift returns the mean total rating of the successful runs (nil
// when none) and, with two or more, the change from the first to the last
// in percent.
func MeanAndDrift(runs []SevenZipRun) (mean, drift *float64) {
	var vals []float64
	for _, r := range runs {
		if r.TotMIPS != nil {
			vals = append(vals, *r.TotMIPS)
		}
	}
	if len(vals) == 0 {
		return nil, nil
	}
	var sum float64
	for _, v := range vals {
		sum += v
	}
	m := math.Round(sum/float64(len(vals))*10) / 10
	mean = &m
	if len(vals) >= 2 && vals[0] > 0 {
		d := math.Round(100*(vals[len(vals)-1]-vals[0])/vals[0]*100) / 100
		drift = &d
	}
	return mean, drift
}
