package runtext

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"boardbench/internal/result"
)

func TestRenderNet(t *testing.T) {
	tx, pps := 932.0, 81000.0
	figs, _ := json.Marshal(result.NetFigures{Interface: "eth0", TxMbitS: &tx, TxPPS: &pps, Seconds: 10,
		CPULoad:    []result.NetCPULoad{{CPU: 0, Sys: 4, IRQ: 21, Softirq: 75}, {CPU: 1}},
		Interrupts: []result.NetInterrupt{{IRQ: "39", Name: "eth0", CPU: 0, Count: 80500}},
		Softirqs:   []result.NetSoftirq{{CPU: 0, NetRX: 81000}, {CPU: 1}}})
	r := &result.Result{Status: result.StatusComplete, Phases: []result.Phase{
		{Name: result.PhaseNetTCPForward, Status: result.PhaseOK, Figures: figs},
		{Name: result.PhaseNetTCPReverse, Status: result.PhaseFailed, Reason: "the iperf3 server on p:5201 is busy"},
	}}
	var buf bytes.Buffer
	RenderNet(&buf, r, false)
	out := buf.String()
	for _, want := range []string{"CPU0 %", "CPU1 %", "TCP send", "932", "81000", "100", "irq 39 (eth0) cpu0 80500",
		"TCP receive: failed: the iperf3 server on p:5201 is busy", "NET_RX/NET_TX: cpu0 81000/0"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if len([]rune(line)) > 100 {
			t.Errorf("line wider than 100: %q", line)
		}
	}
	// report FILE renders the phases too.
	buf.Reset()
	Render(&buf, r, false)
	if !strings.Contains(buf.String(), "irq 39 (eth0) cpu0 80500") {
		t.Errorf("report lacks the net figures:\n%s", buf.String())
	}
}

// TestRenderNetColumns: retransmits, PPS both ways, the merged-segment
// flag, and no per-CPU or interrupt lines for steps that never ran.
func TestRenderNetColumns(t *testing.T) {
	tx, rx, txPPS, rxPPS := 12283.0, 900.0, 26820.0, 51000.0
	var retr, retrBidir int64 = 7, 130
	load := []result.NetCPULoad{{CPU: 0, Sys: 10, Softirq: 40}, {CPU: 1, Usr: 20}}
	mk := func(f result.NetFigures) []byte { b, _ := json.Marshal(f); return b }
	r := &result.Result{Command: "net", Status: result.StatusComplete, Phases: []result.Phase{
		{Name: result.PhaseNetTCPBidir, Status: result.PhaseOK, Figures: mk(result.NetFigures{TxMbitS: &tx, RxMbitS: &rx, TxPPS: &txPPS, RxPPS: &rxPPS, Retransmits: &retrBidir, CPULoad: load})},
		{Name: result.PhaseNetSmallPackets, Status: result.PhaseOK, Figures: mk(result.NetFigures{TxMbitS: &tx, TxPPS: &txPPS, RxPPS: &rxPPS, Retransmits: &retr, MSS: 88,
			MergedSegments: true, Notes: []string{"sent 57247 bytes per counted packet, 154 at most on the wire (MSS 88)"}, CPULoad: load})},
		{Name: result.PhaseNetUDP, Status: result.PhaseSkipped, Reason: "not run: the peer refused the connection"},
	}}
	var buf bytes.Buffer
	RenderNet(&buf, r, false)
	out := buf.String()
	for _, want := range []string{"retr", "26820/51000", "130", "26820*", "* not packets on the wire", "TCP MSS 88: sent 57247 bytes per counted packet",
		"UDP send: skipped: not run: the peer refused the connection"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, unwanted := range []string{"UDP send: no interrupt", "UDP send       cpu"} {
		if strings.Contains(out, unwanted) {
			t.Errorf("output has %q for a step that never ran:\n%s", unwanted, out)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if len([]rune(line)) > 100 {
			t.Errorf("line wider than 100: %q", line)
		}
	}
	// Nothing measured: no empty headings.
	buf.Reset()
	RenderNet(&buf, &result.Result{Phases: []result.Phase{{Name: result.PhaseNetTCPForward, Status: result.PhaseFailed, Reason: "refused"}}}, false)
	if out := buf.String(); strings.Contains(out, "irq and softirq per CPU") || strings.Contains(out, "Interrupts and network") {
		t.Errorf("empty headings for steps that never ran:\n%s", out)
	}
}

// TestNetSummaryInReport: report of a net result shows net's headline,
// not run's.
func TestNetSummaryInReport(t *testing.T) {
	tx, rx, pps := 941.0, 936.0, 81000.0
	for _, tt := range []struct {
		name    string
		s       *result.NetSummary
		want    []string
		notWant []string
	}{
		{"peer", &result.NetSummary{TCPTxMbitS: &tx, TCPRxMbitS: &rx, TCPBidirTxMbitS: &tx, SmallPacketsPPS: &pps, SmallPacketsMerged: true},
			[]string{"send 941 Mbit/s, receive 936 Mbit/s", "send 941 Mbit/s, receive n/a", "81000 PPS (segments merged"}, []string{"7-Zip", "memcpy"}},
		{"watch", &result.NetSummary{Interfaces: []result.NetInterfaceRate{{Name: "eth0", RxMbitS: 500, TxMbitS: 20, RxPPS: 42000, TxPPS: 3000}}},
			[]string{"eth0", "rx 500 Mbit/s 42000 PPS, tx 20 Mbit/s 3000 PPS"}, []string{"7-Zip", "TCP both ways:"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &result.Result{Command: "net", Status: result.StatusComplete}
			r.Summary.NetSummary = tt.s
			var buf bytes.Buffer
			Render(&buf, r, false)
			out := buf.String()
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("report lacks %q:\n%s", w, out)
				}
			}
			for _, w := range tt.notWant {
				if strings.Contains(out, w) {
					t.Errorf("report has %q:\n%s", w, out)
				}
			}
		})
	}
}
