package runtext

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// netDirection names a net phase in the table; "" for a phase that is not
// one of net's.
func netDirection(phase string) string {
	switch phase {
	case result.PhaseNetTCPForward:
		return "TCP send"
	case result.PhaseNetTCPReverse:
		return "TCP receive"
	case result.PhaseNetTCPBidir:
		return "TCP both ways"
	case result.PhaseNetSmallPackets:
		return "TCP MSS 88"
	case result.PhaseNetUDP:
		return "UDP send"
	case result.PhaseNetUDPBidir:
		return "UDP both ways"
	case result.PhaseNetWatch:
		return "watched"
	case result.PhaseNetWatchApplied:
		return "watched, applied"
	case result.PhaseNetHeadroomIdle:
		return "load calibration"
	}
	return ""
}

// IsNetPhase reports whether a phase holds NetFigures.
func IsNetPhase(name string) bool { return netDirection(name) != "" }

// RenderNet writes the table of `boardbench net`: one row per step with
// its throughput, packets per second and the load of every CPU (usr, sys,
// irq and softirq together), and under it which CPU served which
// interrupt and the NET_RX/NET_TX soft interrupts. The findings follow.
func RenderNet(w io.Writer, r *result.Result, color bool) {
	tw := textfmt.New(w, color)
	if line := netInterfaceLine(r.Phases); line != "" {
		tw.Line("%s", line)
	}
	renderNetTable(tw, r.Phases)
	var samples []result.Sample
	for _, p := range r.Phases {
		if IsNetPhase(p.Name) {
			samples = append(samples, p.Samples...)
		}
	}
	if line := tempsLine(r.Monitor.Temps, samples); line != "" {
		tw.Line("Temperatures (highest over the traffic steps): %s", line)
	}
	renderFindings(tw, r)
}

// netInterfaceLine names the measured interfaces with their driver, link
// and MTU, from the description before the steps ("" without one).
func netInterfaceLine(phases []result.Phase) string {
	for _, p := range phases {
		var f result.NetInterfaceFigures
		if p.Name != result.PhaseNetInterfacesBefore || json.Unmarshal(p.Figures, &f) != nil || len(f.Interfaces) == 0 {
			continue
		}
		var parts []string
		for _, d := range f.Interfaces {
			link, mtu := "unknown", "unknown"
			if d.SpeedMbps != nil {
				link = fmt.Sprintf("%d Mbit/s", *d.SpeedMbps)
			}
			if d.MTU != nil {
				mtu = strconv.FormatInt(*d.MTU, 10)
			}
			parts = append(parts, fmt.Sprintf("%s (driver %s, link %s, MTU %s)", d.Name, textfmt.OrUnknown(d.Driver), link, mtu))
		}
		return "Interface: " + strings.Join(parts, "; ")
	}
	return ""
}

type netRow struct {
	phase result.Phase
	figs  result.NetFigures
}

func netRows(phases []result.Phase) []netRow {
	var rows []netRow
	for _, p := range phases {
		if !IsNetPhase(p.Name) {
			continue
		}
		var f result.NetFigures
		if len(p.Figures) > 0 {
			_ = json.Unmarshal(p.Figures, &f)
		}
		rows = append(rows, netRow{p, f})
	}
	return rows
}

func renderNetTable(w *textfmt.Writer, phases []result.Phase) {
	rows := netRows(phases)
	if len(rows) == 0 {
		return
	}
	var cpus []int
	for _, r := range rows {
		for _, l := range r.figs.CPULoad {
			if !slices.Contains(cpus, l.CPU) {
				cpus = append(cpus, l.CPU)
			}
		}
	}
	slices.Sort(cpus)
	w.Section("Network throughput and CPU load (usr+sys+irq+softirq)")
	headers := []string{"direction", "Mbit/s", "PPS", "retr"}
	for _, c := range cpus {
		headers = append(headers, fmt.Sprintf("CPU%d %%", c))
	}
	t := textfmt.NewTable(headers...)
	for i := 1; i < len(headers); i++ {
		t.RightAlign[i] = true
	}
	merged, bidir := false, false
	for _, r := range rows {
		if isWatchPhase(r.phase.Name) {
			for _, rate := range r.figs.Interfaces {
				label := rate.Name + " rx/tx"
				if r.phase.Name != result.PhaseNetWatch {
					label = netDirection(r.phase.Name) + ": " + label
				}
				row := []string{label, fmt.Sprintf("%.0f/%.0f", rate.RxMbitS, rate.TxMbitS), fmt.Sprintf("%.0f/%.0f", rate.RxPPS, rate.TxPPS), "-"}
				t.Row(append(row, loadCells(r.figs, cpus)...)...)
			}
			if len(r.figs.Interfaces) > 0 {
				continue
			}
		}
		row := []string{netDirection(r.phase.Name), netMbit(r.figs), netPPS(r.figs), netRetransmits(r.figs)}
		if r.figs.MergedSegments {
			row[2] += "*"
			merged = true
		}
		if r.figs.TxMbitS != nil && r.figs.RxMbitS != nil {
			bidir = true
		}
		if r.phase.Status != result.PhaseOK {
			row[1], row[2], row[3] = r.phase.Status, "-", "-"
		}
		t.Row(append(row, loadCells(r.figs, cpus)...)...)
	}
	w.Table(t)
	if bidir {
		w.Line("Both ways: sent/received. retr: TCP retransmits of the senders.")
	}
	if merged {
		w.Line("* not packets on the wire: segmentation offload (GSO/TSO/GRO) merged them into bigger " +
			"segments before the interface counted them.")
		for _, r := range rows {
			for _, n := range r.figs.Notes {
				w.Line("  %s: %s", netDirection(r.phase.Name), n)
			}
		}
	}
	for _, r := range rows {
		if r.phase.Status == result.PhaseOK {
			netExtraLines(w, r)
		}
	}
	for _, r := range rows {
		if r.phase.Status != result.PhaseOK && r.phase.Reason != "" {
			w.Line("%s: %s: %s", netDirection(r.phase.Name), r.phase.Status, r.phase.Reason)
		}
	}
	// Per-CPU and per-interrupt lines only for the steps that measured.
	var measured []netRow
	for _, r := range rows {
		if len(r.figs.CPULoad) > 0 {
			measured = append(measured, r)
		}
	}
	if len(measured) == 0 {
		return
	}
	w.Line("irq and softirq per CPU, in %%:")
	for _, r := range measured {
		var cells []string
		for _, l := range r.figs.CPULoad {
			cells = append(cells, fmt.Sprintf("cpu%d %.0f/%.0f", l.CPU, l.IRQ, l.Softirq))
		}
		w.Line("  %-14s %s", netDirection(r.phase.Name), strings.Join(cells, "  "))
	}
	w.Section("Interrupts and network soft interrupts per CPU")
	for _, r := range measured {
		var parts []string
		for _, i := range r.figs.Interrupts {
			parts = append(parts, fmt.Sprintf("irq %s (%s) cpu%d %d", i.IRQ, i.Name, i.CPU, i.Count))
		}
		if len(parts) == 0 {
			parts = append(parts, "no interrupt of the interface counted")
		}
		var soft []string
		for _, s := range r.figs.Softirqs {
			soft = append(soft, fmt.Sprintf("cpu%d %d/%d", s.CPU, s.NetRX, s.NetTX))
		}
		w.Line("%s: %s", netDirection(r.phase.Name), strings.Join(parts, "; "))
		if len(soft) > 0 {
			w.Line("  NET_RX/NET_TX: %s", strings.Join(soft, "  "))
		}
	}
}

// isWatchPhase reports whether a phase watched interfaces (their rates in
// NetFigures.Interfaces).
func isWatchPhase(name string) bool {
	return name == result.PhaseNetWatch || name == result.PhaseNetWatchApplied || name == result.PhaseNetHeadroomIdle
}

// netExtraLines writes a measured step's UDP loss and jitter, its packet
// rate against the line rate, its rate limit and its power.
func netExtraLines(w *textfmt.Writer, r netRow) {
	name, f := netDirection(r.phase.Name), r.figs
	if f.LostPercent != nil || f.JitterMs != nil {
		line := fmt.Sprintf("%s: sent %s lost, jitter %s", name, netPct(f.LostPercent), ms(f.JitterMs))
		if f.RxLostPercent != nil || f.RxJitterMs != nil {
			line += fmt.Sprintf("; received %s lost, jitter %s", netPct(f.RxLostPercent), ms(f.RxJitterMs))
		}
		w.Line("%s", line)
	}
	if f.BitrateLimit > 0 && (f.LostPercent == nil) {
		w.Line("%s: at most %.0f Mbit/s per stream (iperf3 -b)", name, float64(f.BitrateLimit)/1e6)
	}
	if len(f.Headroom) > 0 {
		var cells []string
		for _, h := range f.Headroom {
			switch {
			case h.Share != nil:
				cells = append(cells, fmt.Sprintf("cpu%d %.0f %%", h.CPU, *h.Share*100))
			case h.UnitsPerS != nil:
				cells = append(cells, fmt.Sprintf("cpu%d %.0f units/s", h.CPU, *h.UnitsPerS))
			default:
				cells = append(cells, fmt.Sprintf("cpu%d unknown", h.CPU))
			}
		}
		what := "capacity left (share of the calibrated load's rate)"
		if r.phase.Name == result.PhaseNetHeadroomIdle {
			what = "calibrated load"
		}
		w.Line("%s: %s: %s", name, what, strings.Join(cells, "  "))
		for _, n := range f.Notes {
			if r.phase.Name == result.PhaseNetHeadroomIdle {
				w.Line("  %s", n)
			}
		}
	}
	if lr := f.LineRate; lr != nil {
		var parts []string
		for _, d := range []struct {
			what                  string
			frame, ceiling, share *float64
		}{{"sent", lr.TxFrameBytes, lr.TxMaxPPS, lr.TxShare}, {"received", lr.RxFrameBytes, lr.RxMaxPPS, lr.RxShare}} {
			if d.frame == nil || d.ceiling == nil {
				continue
			}
			share := "unknown"
			if d.share != nil {
				share = fmt.Sprintf("%.1f %%", *d.share*100)
			}
			parts = append(parts, fmt.Sprintf("%s %.0f-byte frames, %s of %.0f pps", d.what, *d.frame, share, *d.ceiling))
		}
		if len(parts) > 0 {
			w.Line("%s: line rate at %d Mbit/s: %s", name, lr.LinkMbitS, strings.Join(parts, "; "))
		}
	}
	if r.phase.PowerW != nil {
		line := fmt.Sprintf("%s: %.2f W", name, *r.phase.PowerW)
		if row := result.NetPowerOf(r.phase.Name, *r.phase.PowerW, f); row.MbitSPerW != nil {
			line += fmt.Sprintf(", %.1f Mbit/s per W", *row.MbitSPerW)
		}
		w.Line("%s", line)
	}
}

// netPct and ms write a percentage and milliseconds, "unknown" for nil.
func netPct(v *float64) string {
	if v == nil {
		return "unknown"
	}
	return fmt.Sprintf("%.2f %%", *v)
}

func ms(v *float64) string {
	if v == nil {
		return "unknown"
	}
	return fmt.Sprintf("%.3f ms", *v)
}

func loadCells(f result.NetFigures, cpus []int) []string {
	var out []string
	for _, c := range cpus {
		cell := "-"
		for _, l := range f.CPULoad {
			if l.CPU == c {
				cell = strconv.FormatFloat(l.Busy(), 'f', 0, 64)
			}
		}
		out = append(out, cell)
	}
	return out
}

func netMbit(f result.NetFigures) string {
	switch {
	case f.TxMbitS != nil && f.RxMbitS != nil:
		return fmt.Sprintf("%.0f/%.0f", *f.TxMbitS, *f.RxMbitS)
	case f.TxMbitS != nil:
		return fmt.Sprintf("%.0f", *f.TxMbitS)
	case f.RxMbitS != nil:
		return fmt.Sprintf("%.0f", *f.RxMbitS)
	}
	return "n/a"
}

// netPPS is the packets per second of the direction(s) the step measured:
// sent/received both ways, else the one direction's.
func netPPS(f result.NetFigures) string {
	switch {
	case f.TxPPS == nil || f.RxPPS == nil:
		return "n/a"
	case f.TxMbitS != nil && f.RxMbitS != nil:
		return fmt.Sprintf("%.0f/%.0f", *f.TxPPS, *f.RxPPS)
	case f.RxMbitS != nil:
		return fmt.Sprintf("%.0f", *f.RxPPS)
	}
	return fmt.Sprintf("%.0f", *f.TxPPS)
}

// netRetransmits is the TCP retransmit count, "-" when not reported.
func netRetransmits(f result.NetFigures) string {
	if f.Retransmits == nil {
		return "-"
	}
	return strconv.FormatInt(*f.Retransmits, 10)
}

// renderNet is the text view of one net phase's figures (report FILE).
func renderNet(w *textfmt.Writer, p result.Phase) {
	renderNetTable(w, []result.Phase{p})
}

// renderNetInterfaces is the text view of an interface description phase.
func renderNetInterfaces(w *textfmt.Writer, f result.NetInterfaceFigures) {
	for _, d := range f.Interfaces {
		var kv [][2]string
		bus := textfmt.OrUnknown(d.Bus)
		if d.USB != nil && d.USB.SpeedMbps != nil {
			bus += fmt.Sprintf(" (%.0f Mbit/s)", *d.USB.SpeedMbps)
		}
		link := "unknown"
		if d.SpeedMbps != nil {
			link = fmt.Sprintf("%d Mbit/s %s", *d.SpeedMbps, d.Duplex)
		}
		kv = append(kv, [2]string{d.Name, fmt.Sprintf("driver %s, bus %s, link %s", textfmt.OrUnknown(d.Driver), bus, link)})
		if d.MTU != nil {
			kv = append(kv, [2]string{"MTU", strconv.FormatInt(*d.MTU, 10)})
		}
		var qs []string
		for _, q := range d.Queues {
			qs = append(qs, q.Name+"="+textfmt.OrUnknown(q.CPUs))
		}
		if len(qs) > 0 {
			kv = append(kv, [2]string{"queues (RPS/XPS masks)", strings.Join(qs, " ")})
		}
		var irqs []string
		for _, i := range d.IRQs {
			irqs = append(irqs, fmt.Sprintf("%s (%s) on cpu %s", i.IRQ, i.Name, textfmt.OrUnknown(i.Affinity)))
		}
		if len(irqs) > 0 {
			kv = append(kv, [2]string{"interrupts", strings.Join(irqs, "; ")})
		}
		if d.Coalesce != nil {
			kv = append(kv, [2]string{"coalescing", fmt.Sprintf("rx-usecs %d rx-frames %d adaptive-rx %v", d.Coalesce.RxUsecs, d.Coalesce.RxFrames, d.Coalesce.AdaptiveRx)})
		}
		if d.EEE != nil {
			kv = append(kv, [2]string{"EEE", fmt.Sprintf("supported %v, enabled %v, active %v", d.EEE.Supported, d.EEE.Enabled, d.EEE.Active)})
		}
		w.KV(kv...)
	}
	for _, a := range f.Applied {
		w.Line("applied: %s", a)
	}
}
