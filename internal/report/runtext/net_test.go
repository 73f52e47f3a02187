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
