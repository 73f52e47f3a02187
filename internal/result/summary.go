package result

import (
	"encoding/json"
	"math"
)

// BuildSummary computes the headline figures from the phases: the measured
// clock per cluster (first clock phase; a cluster whose samples were all
// disturbed is set apart), 7-Zip multi-threaded (mean of the successful
// runs, each run, and the mean of the runs 7-Zip's own CPU usage does not
// show as disturbed), 7-Zip single-threaded, AES-256-CBC at 16 KiB, memcpy
// and memset per core type. Phases without figures are passed over; Valid
// and Verdict are left to validation.
func BuildSummary(phases []Phase) Summary {
	s := Summary{
		ClockMHz: []Value{}, ClockAllDisturbed: []Value{}, SevenZipMultiRuns: []float64{},
		SevenZipMultiDisturbedRuns: []int{}, SevenZipSingleMIPS: []Value{}, SevenZipSingleDisturbedCPUs: []int{},
		AES256At16K: []Value{}, MemcpyMBs: []Value{}, MemsetMBs: []Value{},
	}
	clockDone := false
	for _, p := range phases {
		if len(p.Figures) == 0 {
			continue
		}
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
			s.SevenZipMultiMIPS, _ = MeanAndDrift(f.Runs)
			setMultiBasis(&s, f)
		case PhaseSevenZipSingle:
			var f SevenZipFigures
			if json.Unmarshal(p.Figures, &f) != nil || f.TotMIPS == nil || len(f.CPUs) == 0 {
				continue
			}
			s.SevenZipSingleMIPS = append(s.SevenZipSingleMIPS, Value{CPU: f.CPUs[0], Core: f.Core, Value: *f.TotMIPS})
			if len(f.LowUsageRuns()) > 0 {
				s.SevenZipSingleDisturbedCPUs = append(s.SevenZipSingleDisturbedCPUs, f.CPUs[0])
			}
		case PhaseOpenSSL:
			var f OpenSSLFigures
			if json.Unmarshal(p.Figures, &f) != nil || len(f.CPUs) == 0 {
				continue
			}
			if v := f.KBs("aes-256-cbc", 16384); v != nil {
				s.AES256At16K = append(s.AES256At16K, Value{CPU: f.CPUs[0], Core: f.Core, Value: *v})
			}
		case PhaseMemory:
			var f MemFigures
			if json.Unmarshal(p.Figures, &f) != nil {
				continue
			}
			if f.MemcpyMBs != nil {
				s.MemcpyMBs = append(s.MemcpyMBs, Value{CPU: f.CPU, Core: f.Core, Value: *f.MemcpyMBs})
			}
			if f.MemsetMBs != nil {
				s.MemsetMBs = append(s.MemsetMBs, Value{CPU: f.CPU, Core: f.Core, Value: *f.MemsetMBs})
			}
		}
	}
	return s
}

// setMultiBasis fills the disturbed runs of the multi-threaded phase, the
// mean of the others and which mean the summary stands by.
func setMultiBasis(s *Summary, f SevenZipFigures) {
	s.SevenZipMultiDisturbedRuns = []int{}
	s.SevenZipMultiMIPSUndisturbed, s.SevenZipMultiBasis = nil, ""
	if s.SevenZipMultiMIPS == nil {
		return
	}
	disturbed := map[int]bool{}
	for _, r := range f.LowUsageRuns() {
		disturbed[r.Run] = true
		s.SevenZipMultiDisturbedRuns = append(s.SevenZipMultiDisturbedRuns, r.Run)
	}
	var clean []SevenZipRun
	for i, r := range f.Runs {
		if !disturbed[i+1] {
			clean = append(clean, r)
		}
	}
	s.SevenZipMultiMIPSUndisturbed, _ = MeanAndDrift(clean)
	s.SevenZipMultiBasis = BasisAllRuns
	if len(disturbed) > 0 && s.SevenZipMultiMIPSUndisturbed != nil {
		s.SevenZipMultiBasis = BasisUndisturbedRuns
	}
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
