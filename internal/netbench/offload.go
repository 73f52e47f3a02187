package netbench

import (
	"fmt"

	"boardbench/internal/result"
)

// Sizes of what wraps a TCP segment on an Ethernet link: Ethernet header
// (14 bytes), IPv4 header (20) and TCP header with timestamps (32).
const (
	ethernetHeader = 14
	tcpIPHeaders   = 20 + 32
	// mergedFactor is how many times the largest packet on the wire the
	// bytes per counted packet must reach to be merged segments.
	mergedFactor = 2
)

// markMergedSegments flags figs when the interface counted far more bytes
// per packet, in a direction the step measured, than the largest packet
// the link carries (the MSS plus headers when the step set one, else the
// MTU plus the Ethernet header): segmentation offload merged the segments
// before the counters saw them, so the PPS is not packets on the wire. mtu
// is the interface's MTU (0 when unknown: 1500 is assumed).
func markMergedSegments(figs *result.NetFigures, mtu int64) {
	if mtu <= 0 {
		mtu = 1500
	}
	largest := mtu + ethernetHeader
	what := fmt.Sprintf("MTU %d", mtu)
	if figs.MSS > 0 {
		largest = int64(figs.MSS) + tcpIPHeaders + ethernetHeader
		what = fmt.Sprintf("MSS %d", figs.MSS)
	}
	for _, c := range figs.Counters {
		if c.Interface != figs.Interface {
			continue
		}
		dirs := []struct {
			name           string
			measured       bool
			bytes, packets uint64
		}{
			{"sent", figs.TxMbitS != nil, c.TxBytes, c.TxPackets},
			{"received", figs.RxMbitS != nil, c.RxBytes, c.RxPackets},
		}
		for _, d := range dirs {
			if !d.measured || d.packets == 0 {
				continue
			}
			bpp := float64(d.bytes) / float64(d.packets)
			if bpp <= float64(mergedFactor*largest) {
				continue
			}
			figs.MergedSegments = true
			figs.Notes = append(figs.Notes, fmt.Sprintf("%s %.0f bytes per counted packet, %d at most on the wire (%s): "+
				"the PPS counts segments merged by segmentation offload, not packets", d.name, bpp, largest, what))
		}
	}
}

// Ethernet's framing on the wire around a frame as the interface counts it
// (header and payload): the frame check sequence, the preamble with the
// start-of-frame delimiter, the inter-frame gap, and the smallest frame
// before the FCS (shorter frames are padded).
const (
	fcsBytes      = 4
	preambleBytes = 8
	gapBytes      = 12
	minFrameBytes = 60
)

// WireBytes returns the bytes of the wire one frame of frame bytes (header
// and payload, without FCS) occupies: the padded frame, its FCS, preamble
// and start delimiter, and the inter-frame gap.
func WireBytes(frame float64) float64 {
	return max(frame, minFrameBytes) + fcsBytes + preambleBytes + gapBytes
}

// MaxPPS returns the packets per second a link of linkMbitS carries in
// one direction with frames of frame bytes: linkMbitS × 10^6 / (8 ×
// WireBytes(frame)). 1000 Mbit/s with 142-byte frames: 753012.
func MaxPPS(linkMbitS int64, frame float64) float64 {
	return float64(linkMbitS) * 1e6 / (8 * WireBytes(frame))
}

// fillLineRate sets figs.LineRate from the step's counters of its
// interface and the link speed (nil when unknown), or says in a note why
// it cannot: no link speed, or merged segments (the bytes per counted
// packet are not frames).
func fillLineRate(figs *result.NetFigures, linkMbitS *int64) {
	switch {
	case linkMbitS == nil || *linkMbitS <= 0:
		figs.Notes = append(figs.Notes, "line rate: the link speed is unknown (a virtual interface, or the driver does not say)")
		return
	case figs.MergedSegments:
		figs.Notes = append(figs.Notes, "line rate: not computed, the counters saw merged segments rather than frames")
		return
	}
	lr := &result.NetLineRate{LinkMbitS: *linkMbitS}
	for _, c := range figs.Counters {
		if c.Interface != figs.Interface {
			continue
		}
		dir := func(measured bool, bytes, packets uint64, pps *float64, frame, ceiling, share **float64) {
			if !measured || packets == 0 {
				return
			}
			f := float64(bytes) / float64(packets)
			m := MaxPPS(*linkMbitS, f)
			*frame, *ceiling = &f, &m
			if pps != nil {
				s := *pps / m
				*share = &s
			}
		}
		dir(figs.TxMbitS != nil, c.TxBytes, c.TxPackets, figs.TxPPS, &lr.TxFrameBytes, &lr.TxMaxPPS, &lr.TxShare)
		dir(figs.RxMbitS != nil, c.RxBytes, c.RxPackets, figs.RxPPS, &lr.RxFrameBytes, &lr.RxMaxPPS, &lr.RxShare)
	}
	if lr.TxMaxPPS != nil || lr.RxMaxPPS != nil {
		figs.LineRate = lr
	}
}
