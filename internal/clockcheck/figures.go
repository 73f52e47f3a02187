package clockcheck

import (
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/result"
)

// Figures converts a clock check into the result's figures, adding
// the advertised maximum of each cluster.
func Figures(rep *Report, clusters []cpu.Cluster) result.ClockFigures {
	figs := result.ClockFigures{Clusters: []result.ClockCluster{}}
	for _, cc := range rep.Clusters {
		out := result.ClockCluster{
			ClockMeasurement: cc.ClockMeasurement, ReportedMHz: cc.ReportedMHz, ReportedSource: cc.ReportedSource,
			FirmwareMHz: cc.FirmwareMHz, DeviationPct: cc.DeviationPct, FirmwareDeviationPct: cc.FirmwareDeviationPct,
			Method: cc.Method, Certain: cc.Certain, Error: cc.Error,
		}
		if cc.Cluster != nil && *cc.Cluster >= 0 && *cc.Cluster < len(clusters) {
			out.AdvertisedMaxMHz = clusters[*cc.Cluster].MaxMHz
		}
		if out.Samples == nil {
			out.Samples = []float64{}
		}
		if out.DisturbedSamples == nil {
			out.DisturbedSamples = []float64{}
		}
		for _, o := range cc.OPPs {
			out.OPPs = append(out.OPPs, result.OPPClock{OPPMeasurement: o.OPPMeasurement, DeviationPct: o.DeviationPct, Error: o.Error})
		}
		figs.Clusters = append(figs.Clusters, out)
	}
	return figs
}

// FillPhase stores a clock check in a phase: the figures, the CPUs measured
// and the check's notes.
func FillPhase(p *result.Phase, rep *Report, clusters []cpu.Cluster) error {
	figs := Figures(rep, clusters)
	p.CPUs = []int{}
	for _, cc := range figs.Clusters {
		if cc.CPU != nil {
			p.CPUs = append(p.CPUs, *cc.CPU)
		}
	}
	for _, n := range rep.Notes {
		p.Notes = append(p.Notes, n.Item+": "+n.Reason)
	}
	return p.SetFigures(figs)
}
