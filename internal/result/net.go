package result

import (
	"encoding/json"

	"boardbench/internal/inventory/network"
)

// Phase names of `boardbench net`.
const (
	// PhaseNetTCPForward is TCP from this machine to the peer.
	PhaseNetTCPForward = "net-tcp-tx"
	// PhaseNetTCPReverse is TCP from the peer to this machine (iperf3 -R).
	PhaseNetTCPReverse = "net-tcp-rx"
	// PhaseNetTCPBidir is TCP both ways at once (iperf3 --bidir).
	PhaseNetTCPBidir = "net-tcp-bidir"
	// PhaseNetSmallPackets is TCP with a small MSS (iperf3 -M 88), for
	// packets per second.
	PhaseNetSmallPackets = "net-small-packets"
	// PhaseNetUDP is UDP at a given rate (iperf3 -u -b RATE).
	PhaseNetUDP = "net-udp"
	// PhaseNetUDPBidir is UDP at a given rate both ways at once (iperf3
	// -u -b RATE --bidir, net --bidir --udp-rate RATE).
	PhaseNetUDPBidir = "net-udp-bidir"
	// PhaseNetWatch is the passive watch of interfaces (net --watch).
	PhaseNetWatch = "net-watch"
	// PhaseNetWatchApplied is the second half of a watch with --headroom
	// and --apply: after the suggested spread and coalescing were
	// applied (the first half, PhaseNetWatch, ran before).
	PhaseNetWatchApplied = "net-watch-applied"
	// PhaseNetHeadroomIdle calibrates the CPU load of --headroom: its
	// rate on each CPU before the watch.
	PhaseNetHeadroomIdle = "net-headroom-idle"
)

// NetFigures are the figures of one step of `boardbench net`.
type NetFigures struct {
	// Interface is the interface the traffic crossed (net --peer); empty
	// with --watch, whose interfaces are in Interfaces.
	Interface string `json:"interface,omitempty"`
	// TxMbitS and RxMbitS are the throughput iperf3 measured from this
	// machine to the peer and back (Mbit/s, 10^6 bits); null for a
	// direction the step did not measure.
	TxMbitS *float64 `json:"tx_mbit_s"`
	RxMbitS *float64 `json:"rx_mbit_s"`
	// Retransmits are the TCP retransmits iperf3 counted on the sending
	// side of this machine; null when not reported (UDP, receive only).
	Retransmits *int64 `json:"retransmits"`
	// LostPercent is the UDP loss the receiver reported; null for TCP.
	// With both ways at once it is the loss from this machine to the peer,
	// and RxLostPercent the loss from the peer to this machine.
	LostPercent   *float64 `json:"lost_percent,omitempty"`
	RxLostPercent *float64 `json:"rx_lost_percent,omitempty"`
	// JitterMs is the UDP jitter the receiver reported (ms, iperf3's
	// smoothed mean deviation of the transit time, RFC 3550); RxJitterMs
	// that of the way back with both ways at once. Null for TCP.
	JitterMs   *float64 `json:"jitter_ms,omitempty"`
	RxJitterMs *float64 `json:"rx_jitter_ms,omitempty"`
	// BitrateLimit is the rate limit of each stream (iperf3 -b) in bit/s;
	// 0 for none (TCP) and the target rate for UDP.
	BitrateLimit int64 `json:"bitrate_limit_bit_s,omitempty"`
	// LineRate is the theoretical packet rate of the link for the frame
	// size the step sent, and the share of it reached; null when the
	// link speed or the frame size is unknown.
	LineRate *NetLineRate `json:"line_rate,omitempty"`
	// RxPPS and TxPPS are the packets per second the interface counted
	// (/sys/class/net/IF/statistics) during the step.
	RxPPS *float64 `json:"rx_pps"`
	TxPPS *float64 `json:"tx_pps"`
	// MSS is the TCP maximum segment size the step asked for (iperf3 -M);
	// 0 for the default.
	MSS int `json:"mss,omitempty"`
	// MergedSegments is true when the interface counted far more bytes per
	// packet than the largest packet the link carries: segmentation
	// offload (GSO, TSO, GRO) handed it merged segments, so RxPPS and
	// TxPPS count merged segments, not packets on the wire. Notes say
	// how many bytes per packet were counted.
	MergedSegments bool `json:"merged_segments,omitempty"`
	// Notes are caveats of the step's figures.
	Notes []string `json:"notes,omitempty"`
	// Counters are the interface counters' deltas over the step.
	Counters []NetCounters `json:"counters,omitempty"`
	// Interfaces are the watched interfaces' rates (net --watch).
	Interfaces []NetInterfaceRate `json:"interfaces,omitempty"`
	// Headroom is the calibrated CPU load's rate on each CPU during the
	// step (net --watch --headroom), and in a watch the share of the
	// calibration (PhaseNetHeadroomIdle) it reached: the capacity left.
	Headroom []NetHeadroom `json:"headroom,omitempty"`
	// CPULoad is each CPU's share of time in user, system, hard
	// interrupt and soft interrupt context over the step, in percent.
	CPULoad []NetCPULoad `json:"cpu_load"`
	// Interrupts are the interface's interrupts counted per CPU over the
	// step (deltas of /proc/interrupts); CPUs with no count are left out.
	Interrupts []NetInterrupt `json:"interrupts"`
	// Softirqs are the NET_RX and NET_TX soft interrupts per CPU over the
	// step (deltas of /proc/softirqs).
	Softirqs []NetSoftirq `json:"softirqs"`
	// Seconds is the length of the sampled window.
	Seconds float64 `json:"seconds"`
}

// NetLineRate is a step's packet rate against the link's ceiling. A frame
// of F bytes (Ethernet header and payload, as the interface counts it)
// takes F + 4 (FCS) + 8 (preamble and start delimiter) + 12 (inter-frame
// gap) bytes of the wire, at least 84 (the 64-byte minimum frame); the
// ceiling is the link speed in bit/s / (8 × those bytes) packets per
// second per direction.
type NetLineRate struct {
	// LinkMbitS is the link speed (Mbit/s) the interface reported.
	LinkMbitS int64 `json:"link_mbit_s"`
	// TxFrameBytes and RxFrameBytes are the mean frame sizes counted
	// (bytes per packet); null for a direction the step did not measure.
	TxFrameBytes *float64 `json:"tx_frame_bytes"`
	RxFrameBytes *float64 `json:"rx_frame_bytes"`
	// TxMaxPPS and RxMaxPPS are the ceilings for those frames.
	TxMaxPPS *float64 `json:"tx_max_pps"`
	RxMaxPPS *float64 `json:"rx_max_pps"`
	// TxShare and RxShare are the packet rates reached, as a share of the
	// ceiling (0 to 1).
	TxShare *float64 `json:"tx_share"`
	RxShare *float64 `json:"rx_share"`
}

// NetHeadroom is one CPU's calibrated load during a step.
type NetHeadroom struct {
	CPU int `json:"cpu"`
	// UnitsPerS are the units of work done per second (one unit: 4096
	// xorshift steps); null when the CPU could not be loaded.
	UnitsPerS *float64 `json:"units_per_s"`
	// IdleUnitsPerS is the calibration of that CPU; null in the
	// calibration step itself.
	IdleUnitsPerS *float64 `json:"idle_units_per_s,omitempty"`
	// Share is UnitsPerS / IdleUnitsPerS, capped at 1: the share of the
	// CPU left for programs while the traffic passed.
	Share *float64 `json:"share,omitempty"`
	// Note says why a figure is missing.
	Note string `json:"note,omitempty"`
}

// NetCounters are the deltas of one interface's counters over a step.
type NetCounters struct {
	Interface string `json:"interface"`
	RxBytes   uint64 `json:"rx_bytes"`
	TxBytes   uint64 `json:"tx_bytes"`
	RxPackets uint64 `json:"rx_packets"`
	TxPackets uint64 `json:"tx_packets"`
	RxDropped uint64 `json:"rx_dropped"`
	TxDropped uint64 `json:"tx_dropped"`
	RxErrors  uint64 `json:"rx_errors"`
	TxErrors  uint64 `json:"tx_errors"`
}

// NetInterfaceRate is one interface's average traffic over a window.
type NetInterfaceRate struct {
	Name    string  `json:"name"`
	RxMbitS float64 `json:"rx_mbit_s"`
	TxMbitS float64 `json:"tx_mbit_s"`
	RxPPS   float64 `json:"rx_pps"`
	TxPPS   float64 `json:"tx_pps"`
}

// NetCPULoad is one CPU's load over a step, in percent of its time.
type NetCPULoad struct {
	CPU     int     `json:"cpu"`
	Usr     float64 `json:"usr"`
	Sys     float64 `json:"sys"`
	IRQ     float64 `json:"irq"`
	Softirq float64 `json:"softirq"`
}

// Busy returns the CPU's total of the four shares.
func (l NetCPULoad) Busy() float64 { return l.Usr + l.Sys + l.IRQ + l.Softirq }

// NetInterrupt is the count of one interrupt on one CPU over a step.
type NetInterrupt struct {
	IRQ   string `json:"irq"`
	Name  string `json:"name"`
	CPU   int    `json:"cpu"`
	Count uint64 `json:"count"`
}

// NetSoftirq is the count of the network soft interrupts on one CPU.
type NetSoftirq struct {
	CPU   int    `json:"cpu"`
	NetRX uint64 `json:"net_rx"`
	NetTX uint64 `json:"net_tx"`
}

// NetSummary holds the headline figures of `boardbench net`; a figure is
// null where its step was skipped or failed.
type NetSummary struct {
	TCPTxMbitS      *float64 `json:"tcp_tx_mbit_s"`
	TCPRxMbitS      *float64 `json:"tcp_rx_mbit_s"`
	TCPBidirTxMbitS *float64 `json:"tcp_bidir_tx_mbit_s"`
	TCPBidirRxMbitS *float64 `json:"tcp_bidir_rx_mbit_s"`
	SmallPacketsPPS *float64 `json:"small_packets_pps"`
	// SmallPacketsMerged is true when SmallPacketsPPS counts segments that
	// segmentation offload merged (see NetFigures.MergedSegments), not
	// packets on the wire.
	SmallPacketsMerged bool `json:"small_packets_merged_segments,omitempty"`
	// Interfaces are the watched interfaces' averages (net --watch).
	Interfaces []NetInterfaceRate `json:"interfaces,omitempty"`
	// Headroom is the capacity left on each CPU during the watch (net
	// --watch --headroom); with --apply, InterfacesApplied and
	// HeadroomApplied are those of the second half, after applying.
	Headroom          []NetHeadroom      `json:"headroom,omitempty"`
	InterfacesApplied []NetInterfaceRate `json:"interfaces_applied,omitempty"`
	HeadroomApplied   []NetHeadroom      `json:"headroom_applied,omitempty"`
	// Power is each traffic step's mean power and throughput per watt;
	// empty without a power source (net --power).
	Power []NetPower `json:"power,omitempty"`
}

// NetPower is one traffic step's power: the mean power the source measured
// over the step (the whole board, idle included), the throughput of both
// directions together and their ratio.
type NetPower struct {
	Phase     string   `json:"phase"`
	PowerW    *float64 `json:"power_w"`
	MbitS     *float64 `json:"mbit_s"`
	MbitSPerW *float64 `json:"mbit_s_per_w"`
}

// BuildNetSummary computes the headline figures of `boardbench net` from
// its phases, on top of the common summary.
func BuildNetSummary(phases []Phase) Summary {
	s := BuildSummary(phases)
	n := &NetSummary{}
	for _, p := range phases {
		var f NetFigures
		if p.Status != PhaseOK || len(p.Figures) == 0 || json.Unmarshal(p.Figures, &f) != nil {
			continue
		}
		switch p.Name {
		case PhaseNetTCPForward:
			n.TCPTxMbitS = f.TxMbitS
		case PhaseNetTCPReverse:
			n.TCPRxMbitS = f.RxMbitS
		case PhaseNetTCPBidir:
			n.TCPBidirTxMbitS, n.TCPBidirRxMbitS = f.TxMbitS, f.RxMbitS
		case PhaseNetSmallPackets:
			n.SmallPacketsPPS, n.SmallPacketsMerged = f.TxPPS, f.MergedSegments
		case PhaseNetWatch:
			n.Interfaces, n.Headroom = f.Interfaces, f.Headroom
		case PhaseNetWatchApplied:
			n.InterfacesApplied, n.HeadroomApplied = f.Interfaces, f.Headroom
		}
		if p.PowerW != nil {
			n.Power = append(n.Power, NetPowerOf(p.Name, *p.PowerW, f))
		}
	}
	s.NetSummary = n
	return s
}

// PhaseNetInterfaces records the measured interfaces before the first and
// after the last traffic step.
const (
	PhaseNetInterfacesBefore = "net-interfaces-before"
	PhaseNetInterfacesAfter  = "net-interfaces-after"
)

// NetInterfaceFigures describe the interfaces at one moment.
type NetInterfaceFigures struct {
	Interfaces []NetInterface `json:"interfaces"`
	// Applied lists the changes `--apply` made ("echo 2 > /proc/irq/39/
	// smp_affinity"); empty without --apply.
	Applied []string `json:"applied,omitempty"`
	// Unmoved are the interrupts whose affinity --apply wrote but whose
	// effective affinity (/proc/irq/N/effective_affinity_list) still
	// excludes every CPU written, or whose write failed: they cannot move
	// (the interrupt controller routes them itself). Recorded in the state
	// directory, they are never advised again.
	Unmoved []NetUnmoved `json:"unmoved,omitempty"`
}

// NetUnmoved is an interrupt that did not move when its affinity was
// written.
type NetUnmoved struct {
	IRQ string `json:"irq"`
	// Name are the interrupt's handlers (/proc/interrupts).
	Name string `json:"name"`
	// Wanted is the CPU list written (as smp_affinity_list shows it),
	// Effective the effective_affinity_list read back.
	Wanted    string `json:"wanted"`
	Effective string `json:"effective"`
	// Reason says how it was seen ("effective affinity unchanged after
	// the write", or the write's error).
	Reason string `json:"reason"`
}

// NetPowerOf is one step's row of NetSummary.Power: watts is the step's
// mean power, f its figures.
func NetPowerOf(phase string, watts float64, f NetFigures) NetPower {
	w := watts
	row := NetPower{Phase: phase, PowerW: &w}
	var mbit *float64
	add := func(v float64) {
		if mbit == nil {
			mbit = new(float64)
		}
		*mbit += v
	}
	if f.TxMbitS != nil {
		add(*f.TxMbitS)
	}
	if f.RxMbitS != nil {
		add(*f.RxMbitS)
	}
	for _, r := range f.Interfaces {
		add(r.RxMbitS) // forwarded traffic enters one interface and leaves another: counted once
	}
	row.MbitS = mbit
	if mbit != nil && watts > 0 {
		v := *mbit / watts
		row.MbitSPerW = &v
	}
	return row
}

// NetInterface is one interface as `boardbench net` records it.
type NetInterface struct {
	network.Interface
	// Queues are the receive and transmit queues with their steering
	// masks.
	Queues []NetQueue `json:"queues"`
	// IRQs are the interrupts that serve the interface.
	IRQs []NetIRQ `json:"irqs"`
	// Link, EEE, Coalesce and Channels come from the ethtool interface;
	// null when the driver does not say (Notes tells why).
	Link     *NetLink     `json:"link"`
	EEE      *NetEEE      `json:"eee"`
	Coalesce *NetCoalesce `json:"coalesce"`
	Channels *NetChannels `json:"channels"`
	// DriverInfo is what the driver says about itself through the ethtool
	// interface; null when it could not be read (Notes tells why).
	DriverInfo *NetDriverInfo `json:"driver_info,omitempty"`
	// Notes say what could not be read.
	Notes []string `json:"notes,omitempty"`
}

// NetQueue is one receive (rx-N) or transmit (tx-N) queue.
type NetQueue struct {
	Name string `json:"name"`
	// CPUs is the steering mask in hexadecimal as the kernel prints it:
	// rps_cpus for a receive queue, xps_cpus for a transmit queue; "" when
	// unreadable.
	CPUs string `json:"cpus"`
}

// NetIRQ is one interrupt of the interface.
type NetIRQ struct {
	IRQ  string `json:"irq"`
	Name string `json:"name"`
	// Affinity is /proc/irq/N/smp_affinity_list (the CPUs allowed),
	// Effective the effective_affinity_list (the CPU that takes it); ""
	// when unreadable.
	Affinity  string `json:"affinity"`
	Effective string `json:"effective,omitempty"`
}

// NetLink is what ethtool says about the link.
type NetLink struct {
	SpeedMbps *int64 `json:"speed_mbps"`
	Duplex    string `json:"duplex"`
	Autoneg   bool   `json:"autoneg"`
	// Advertised are the link modes this end offers, PeerAdvertised those
	// of the other end ("1000baseT/Full").
	Advertised     []string `json:"advertised"`
	PeerAdvertised []string `json:"peer_advertised"`
}

// NetEEE is the Energy-Efficient Ethernet state.
type NetEEE struct {
	Supported bool `json:"supported"`
	Enabled   bool `json:"enabled"`
	Active    bool `json:"active"`
	TxLPI     bool `json:"tx_lpi"`
}

// NetCoalesce is the interrupt coalescing of the interface: how long (µs) and
// how many frames the NIC waits before raising an interrupt.
type NetCoalesce struct {
	RxUsecs    uint32 `json:"rx_usecs"`
	RxFrames   uint32 `json:"rx_frames"`
	TxUsecs    uint32 `json:"tx_usecs"`
	TxFrames   uint32 `json:"tx_frames"`
	AdaptiveRx bool   `json:"adaptive_rx"`
	AdaptiveTx bool   `json:"adaptive_tx"`
}

// NetChannels are the queue counts the driver uses (and supports at most).
type NetChannels struct {
	Rx          uint32 `json:"rx"`
	Tx          uint32 `json:"tx"`
	Combined    uint32 `json:"combined"`
	MaxRx       uint32 `json:"max_rx"`
	MaxTx       uint32 `json:"max_tx"`
	MaxCombined uint32 `json:"max_combined"`
}

// NetDriverInfo is what the driver says about itself (ETHTOOL_GDRVINFO, what
// `ethtool -i` prints).
type NetDriverInfo struct {
	// Driver is the driver's name ("r8169", "veth", "bcmgenet").
	Driver string `json:"driver"`
	// Version is the driver's version; often the kernel's.
	Version string `json:"version,omitempty"`
	// Firmware is the NIC's firmware version; "" when none.
	Firmware string `json:"firmware,omitempty"`
	// BusInfo is the device's bus address ("0000:01:00.0", "usb-xhci-
	// hcd.0-1"); "" for a virtual interface.
	BusInfo string `json:"bus_info,omitempty"`
}
