package netstat

import (
	"testing"
	"time"

	"boardbench/internal/kernelfile"
	"boardbench/internal/result"
)

func snap(t *testing.T, at time.Time, stat, ints, soft string, rxPackets uint64) Snapshot {
	t.Helper()
	_, per, ok := kernelfile.ParseStat([]byte(stat))
	if !ok {
		t.Fatal("stat")
	}
	i, _ := kernelfile.ParseInterrupts([]byte(ints))
	s, _ := kernelfile.ParseSoftirqs([]byte(soft))
	return Snapshot{Time: at, CPU: per, Interrupts: i, Softirqs: s,
		Counters: map[string]map[string]uint64{"eth0": {"rx_packets": rxPackets, "rx_bytes": rxPackets * 1500}}}
}

func TestBetween(t *testing.T) {
	t0 := time.Unix(1000, 0)
	a := snap(t, t0, "cpu 0 0 0 0\ncpu0 100 0 100 800 0 0 0\ncpu1 100 0 100 800 0 0 0\n",
		"CPU0 CPU1\n 39: 1000 0  GICv2 189 Level  eth0\n 11: 5 5  GICv2 30 Level  arch_timer\n",
		"CPU0 CPU1\nNET_RX: 10 10\nNET_TX: 1 1\n", 1000)
	// In 2 s (200 ticks per CPU): cpu0 spent 20 ticks in irq and 120 in
	// softirq, cpu1 stayed idle; interrupt 39 fired 5000 times on cpu0.
	b := snap(t, t0.Add(2*time.Second), "cpu 0 0 0 0\ncpu0 110 0 110 840 0 20 120\ncpu1 100 0 102 998 0 0 0\n",
		"CPU0 CPU1\n 39: 6000 0  GICv2 189 Level  eth0\n 11: 50 50  GICv2 30 Level  arch_timer\n",
		"CPU0 CPU1\nNET_RX: 4010 12\nNET_TX: 1 1\n", 21000)
	w := Between(a, b, []string{"39"})
	want := []result.NetCPULoad{{CPU: 0, Usr: 5, Sys: 5, IRQ: 10, Softirq: 60}, {CPU: 1, Sys: 1}}
	if len(w.CPULoad) != 2 || w.CPULoad[0] != want[0] || w.CPULoad[1] != want[1] {
		t.Errorf("cpu load = %+v, want %+v", w.CPULoad, want)
	}
	if len(w.Interrupts) != 1 || w.Interrupts[0] != (result.NetInterrupt{IRQ: "39", Name: "eth0", CPU: 0, Count: 5000}) {
		t.Errorf("interrupts = %+v", w.Interrupts)
	}
	if len(w.Softirqs) != 2 || w.Softirqs[0].NetRX != 4000 || w.Softirqs[1].NetRX != 2 {
		t.Errorf("softirqs = %+v", w.Softirqs)
	}
	r := w.Rate("eth0")
	if r == nil || r.RxPPS != 10000 || r.RxMbitS != 120 {
		t.Errorf("rate = %+v", r)
	}
	// Counters that went backwards (a reset interface) count as zero.
	back := Between(b, a, []string{"39"})
	if r := back.Rate("eth0"); r != nil && r.RxPPS != 0 {
		t.Errorf("backwards rate = %+v", r)
	}
}
