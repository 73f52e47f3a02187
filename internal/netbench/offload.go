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
