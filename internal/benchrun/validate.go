package benchrun

import (
	"encoding/json"

	"boardbench/internal/check"
	"boardbench/internal/finding"
	"boardbench/internal/result"
	"boardbench/internal/tools"
)

// findings are the run's own findings for the session's validation: the
// idle gate, tools, pinning and tuning, a sustained drift. Quick mode is
// no finding: it is a mode (result.Result.Quick), judged by the same rules.
func (r *runner) findings(res *result.Result) []finding.Finding {
	fs := append([]finding.Finding{}, r.runFindings...)
	fs = append(fs, check.SustainedDrift(res.Phases)...)
	return fs
}

// facts adds what the rules need from the tuning and the clock phases to
// the machine description's facts.
func (r *runner) facts(f check.Facts) check.Facts {
	f.Governors = r.governorsDuring
	f.Tuned = r.tuned
	f.Clusters = clockFacts(r.res.Phases)
	f.SevenZip = toolComparable(r.tools.SevenZip)
	return f
}

// clockFacts returns the measured clocks of every clock phase; a
// measurement whose samples were all disturbed is marked, so that the clock
// rules do not compare it.
func clockFacts(phases []result.Phase) []check.Cluster {
	var out []check.Cluster
	for _, p := range phases {
		if (p.Name != result.PhaseClock && p.Name != result.PhaseClockAfterLoad) || len(p.Figures) == 0 {
			continue
		}
		var figs result.ClockFigures
		if json.Unmarshal(p.Figures, &figs) != nil {
			continue
		}
		for _, c := range figs.Clusters {
			out = append(out, check.Cluster{Label: clusterLabel(c), CPUs: c.CPUs, AdvertisedMaxMHz: c.AdvertisedMaxMHz,
				MeasuredMHz: c.MeasuredMHz, ReportedMHz: c.ReportedMHz, FirmwareMHz: c.FirmwareMHz, Phase: p.Name,
				Disturbed: c.AllDisturbed()})
		}
	}
	return out
}

// toolComparable says whether 7-Zip's figures compare with published ones.
func toolComparable(t *tools.Tool) *check.ToolComparability {
	if t == nil {
		return nil
	}
	return &check.ToolComparability{Version: t.Version, Comparable: t.Comparable, Reason: t.ComparableReason}
}
