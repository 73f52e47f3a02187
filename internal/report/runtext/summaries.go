package runtext

import (
	"encoding/json"
	"fmt"

	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// summaryFigures gives, per command, the lines its Summary section shows
// after the common ones (status, verdict, start, tool, machine, OS): only
// the figures that command makes. A command that is not listed (ok false)
// is `run` or one of its kind, whose summary is written by
// renderRunSummary. A listed command's function may return nothing (a
// command whose figures all have sections of their own). Add a command here
// when it records a result.
func summaryFigures(command string) (figures func(*result.Result) [][2]string, ok bool) {
	switch command {
	case "monitor":
		return monitorPairs, true
	// sweep and thermal figures have sections of their own (sweeptext.go,
	// thermaltext.go).
	case "sweep", "thermal":
		return toolsAndTuning, true
	case "storage":
		return storagePairs, true
	case "net":
		return netPairs, true
	case "writes":
		// writes' figures are its phase's: no headline.
		return func(*result.Result) [][2]string { return nil }, true
	}
	return nil, false
}

// toolsAndTuning are the tools a command ran and what it changed.
func toolsAndTuning(r *result.Result) [][2]string {
	return append(toolPairs(r), [2]string{"tuning", tuningLine(r.Tuning)})
}

// storagePairs are the storage headline: 16 MiB sequential throughput and
// 4 KiB random IOPS.
func storagePairs(r *result.Result) [][2]string {
	s := r.Summary.StorageSummary
	if s == nil {
		if p := storageModePairs(r); p != nil {
			return p
		}
		return [][2]string{{"storage", "n/a (the storage test recorded no figures)"}}
	}
	mbs := func(v *float64) string {
		if v == nil {
			return "n/a"
		}
		return fmt.Sprintf("%.1f MB/s", *v)
	}
	iops := func(v *float64) string {
		if v == nil {
			return "n/a"
		}
		return fmt.Sprintf("%.0f IOPS", *v)
	}
	return [][2]string{
		{"sequential", fmt.Sprintf("read %s, write %s (16 MiB records, 1 MB = 10^6 bytes)", mbs(s.SeqReadMBs), mbs(s.SeqWriteMBs))},
		{"4 KiB random", fmt.Sprintf("read %s, write %s", iops(s.RandRead4kIOPS), iops(s.RandWrite4kIOPS))},
	}
}

// storageModePairs are the headline of a --sustained or --verify-capacity
// run, which has no table: the write cache and the rate after it, or the
// real capacity; nil when the result has neither phase with figures.
func storageModePairs(r *result.Result) [][2]string {
	for _, p := range r.Phases {
		if len(p.Figures) == 0 {
			continue
		}
		switch p.Name {
		case result.PhaseStorageSustained:
			var f result.StorageSustainedFigures
			if json.Unmarshal(p.Figures, &f) != nil {
				continue
			}
			if f.Fell && f.CacheBytes != nil && f.KBsAfter != nil {
				return [][2]string{{"sustained", fmt.Sprintf("the rate fell after %s (write cache), then %.0f KiB/s", textfmt.Bytes(*f.CacheBytes), *f.KBsAfter)}}
			}
			return [][2]string{{"sustained", fmt.Sprintf("the rate did not fall in %s written", textfmt.Bytes(f.WrittenBytes))}}
		case result.PhaseStorageCapacity:
			var f result.StorageCapacityFigures
			if json.Unmarshal(p.Figures, &f) != nil {
				continue
			}
			return [][2]string{{"capacity", fmt.Sprintf("%s of %s written read back intact", textfmt.Bytes(f.OKBytes), textfmt.Bytes(f.WrittenBytes))}}
		}
	}
	return nil
}

// renderRunSummary ends the Summary section of `run` and results like it:
// 7-Zip, tools, tuning and the per-core-type table.
func renderRunSummary(w *textfmt.Writer, r *result.Result, pairs [][2]string) {
	pairs = append(pairs, [2]string{"7-Zip multi", sevenZipMultiLine(r)})
	pairs = append(pairs, WorkloadPairs(r.Summary.Workloads)...)
	pairs = append(pairs, importedPairs(r)...)
	pairs = append(pairs, toolPairs(r)...)
	pairs = append(pairs, [2]string{"tuning", tuningLine(r.Tuning)})
	w.KV(pairs...)
	renderPerCoreType(w, r)
}

// netPairs are the headline of `boardbench net`: TCP each way and both
// ways, small-packet PPS, or with --watch each interface's average rates.
func netPairs(r *result.Result) [][2]string {
	s := r.Summary.NetSummary
	if s == nil {
		return append([][2]string{{"net", "n/a (the network test recorded no figures)"}}, toolsAndTuning(r)...)
	}
	mbit := func(v *float64) string {
		if v == nil {
			return "n/a"
		}
		return fmt.Sprintf("%.0f Mbit/s", *v)
	}
	var pairs [][2]string
	if len(s.Interfaces) > 0 {
		for _, i := range s.Interfaces {
			pairs = append(pairs, [2]string{i.Name, fmt.Sprintf("rx %.0f Mbit/s %.0f PPS, tx %.0f Mbit/s %.0f PPS (average over the watch)",
				i.RxMbitS, i.RxPPS, i.TxMbitS, i.TxPPS)})
		}
	} else {
		pps := "n/a"
		if s.SmallPacketsPPS != nil {
			pps = fmt.Sprintf("%.0f PPS", *s.SmallPacketsPPS)
			if s.SmallPacketsMerged {
				pps += " (segments merged by segmentation offload, not packets on the wire)"
			}
		}
		pairs = append(pairs,
			[2]string{"TCP", fmt.Sprintf("send %s, receive %s", mbit(s.TCPTxMbitS), mbit(s.TCPRxMbitS))},
			[2]string{"TCP both ways", fmt.Sprintf("send %s, receive %s", mbit(s.TCPBidirTxMbitS), mbit(s.TCPBidirRxMbitS))},
			[2]string{"TCP MSS 88", pps})
	}
	return append(pairs, toolsAndTuning(r)...)
}
