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
