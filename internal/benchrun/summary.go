package benchrun

import (
	"encoding/json"

	"boardbench/internal/result"
)

// BuildSummary computes the headline figures from the phases: the measured
// clock per cluster (first clock phase), 7-Zip multi-threaded (mean of the
// successful runs, and each run), 7-Zip single-threaded, AES-256-CBC at
// 16 KiB, memcpy and memset per core type. Phases without figures are
// passed over; Valid and Verdict are left to validation.
func BuildSummary(phases []result.Phase) result.Summary {
	s := result.Summary{
		ClockMHz: []result.Value{}, SevenZipMultiRuns: []float64{}, SevenZipSingleMIPS: []result.Value{},
		AES256At16K: []result.Value{}, MemcpyMBs: []result.Value{}, MemsetMBs: []result.Value{},
	}
	clockDone := false
	for _, p := range phases {
		if len(p.Figures) == 0 {
			continue
		}
		switch p.Name {
		case result.PhaseClock:
			var f result.ClockFigures
			if clockDone || json.Unmarshal(p.Figures, &f) != nil {
				continue
			}
			clockDone = true
			for _, c := range f.Clusters {
				if c.CPU != nil && c.MeasuredMHz != nil {
					s.ClockMHz = append(s.ClockMHz, result.Value{CPU: *c.CPU, Core: c.Core, Value: *c.MeasuredMHz})
				}
			}
		case result.PhaseSevenZipMulti:
			var f result.SevenZipFigures
			if json.Unmarshal(p.Figures, &f) != nil {
				continue
			}
			for _, r := range f.Runs {
				if r.TotMIPS != nil {
					s.SevenZipMultiRuns = append(s.SevenZipMultiRuns, *r.TotMIPS)
				}
			}
			s.SevenZipMultiMIPS, _ = meanAndDrift(f.Runs)
		case result.PhaseSevenZipSingle:
			var f result.SevenZipFigures
			if json.Unmarshal(p.Figures, &f) != nil || f.TotMIPS == nil || len(f.CPUs) == 0 {
				continue
			}
			s.SevenZipSingleMIPS = append(s.SevenZipSingleMIPS, result.Value{CPU: f.CPUs[0], Core: f.Core, Value: *f.TotMIPS})
		case result.PhaseOpenSSL:
			var f result.OpenSSLFigures
			if json.Unmarshal(p.Figures, &f) != nil || len(f.CPUs) == 0 {
				continue
			}
			if v := f.KBs("aes-256-cbc", 16384); v != nil {
				s.AES256At16K = append(s.AES256At16K, result.Value{CPU: f.CPUs[0], Core: f.Core, Value: *v})
			}
		case result.PhaseMemory:
			var f result.MemFigures
			if json.Unmarshal(p.Figures, &f) != nil {
				continue
			}
			if f.MemcpyMBs != nil {
				s.MemcpyMBs = append(s.MemcpyMBs, result.Value{CPU: f.CPU, Core: f.Core, Value: *f.MemcpyMBs})
			}
			if f.MemsetMBs != nil {
				s.MemsetMBs = append(s.MemsetMBs, result.Value{CPU: f.CPU, Core: f.Core, Value: *f.MemsetMBs})
			}
		}
	}
	return s
}
