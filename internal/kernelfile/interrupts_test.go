package kernelfile

import (
	"slices"
	"testing"
)

func TestParseInterrupts(t *testing.T) {
	const x86 = "           CPU0       CPU1       \n" +
		"  0:         22          0   IO-APIC   2-edge      timer\n" +
		" 28:          0          0 PCI-MSIX-0000:00:01.0   0-edge      virtio0-config\n" +
		" 29:     123456        789 PCI-MSIX-0000:00:03.0   1-edge      eth0-rx-0\n" +
		" 16:          5          6   IO-APIC  16-fasteoi   ehci_hcd:usb1, eth1\n" +
		"NMI:          0          0   Non-maskable interrupts\n" +
		"ERR:          0\n"
	// A Raspberry Pi CM4 (GIC, every interrupt on CPU0), CPU2 offline.
	const arm = "           CPU0       CPU1       CPU3\n" +
		" 39:    9876543          0          0     GICv2 189 Level     eth0\n" +
		" 40:    1234567          0          0     GICv2 190 Level     eth0\n" +
		"IPI0:       10         20         30       Rescheduling interrupts\n"
	tests := []struct {
		name    string
		in      string
		ok      bool
		cpus    []int
		lines   int
		irq     string
		counts  []uint64
		actions []string
	}{
		{name: "x86 MSI-X queue", in: x86, ok: true, cpus: []int{0, 1}, lines: 6, irq: "29", counts: []uint64{123456, 789}, actions: []string{"eth0-rx-0"}},
		{name: "x86 shared line", in: x86, ok: true, cpus: []int{0, 1}, lines: 6, irq: "16", counts: []uint64{5, 6}, actions: []string{"ehci_hcd:usb1", "eth1"}},
		{name: "x86 short line", in: x86, ok: true, cpus: []int{0, 1}, lines: 6, irq: "ERR", counts: []uint64{0}},
		{name: "arm gic with an offline cpu", in: arm, ok: true, cpus: []int{0, 1, 3}, lines: 3, irq: "40", counts: []uint64{1234567, 0, 0}, actions: []string{"eth0"}},
		{name: "arm ipi", in: arm, ok: true, cpus: []int{0, 1, 3}, lines: 3, irq: "IPI0", counts: []uint64{10, 20, 30}},
		{name: "no header", in: " 1: 2 3 x\n", ok: false},
		{name: "empty", in: "", ok: false},
		{name: "junk lines skipped", in: "CPU0\n\x00\xff\n: 1\nx y: 2\n 5: abc\n 6: 7  a  b\n", ok: true, cpus: []int{0}, lines: 1, irq: "6", counts: []uint64{7}, actions: []string{"b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, ok := ParseInterrupts([]byte(tt.in))
			if ok != tt.ok {
				t.Fatalf("ok = %v, want %v", ok, tt.ok)
			}
			if !ok {
				return
			}
			if !slices.Equal(got.CPUs, tt.cpus) || len(got.Lines) != tt.lines {
				t.Fatalf("cpus %v, %d lines; want %v, %d", got.CPUs, len(got.Lines), tt.cpus, tt.lines)
			}
			i := slices.IndexFunc(got.Lines, func(l Interrupt) bool { return l.IRQ == tt.irq })
			if i < 0 {
				t.Fatalf("irq %s not found in %+v", tt.irq, got.Lines)
			}
			l := got.Lines[i]
			if !slices.Equal(l.Counts, tt.counts) || !slices.Equal(l.Actions, tt.actions) {
				t.Errorf("irq %s: counts %v actions %q; want %v %q", tt.irq, l.Counts, l.Actions, tt.counts, tt.actions)
			}
		})
	}
}

func TestInterruptsCountOn(t *testing.T) {
	got, _ := ParseInterrupts([]byte("CPU0 CPU2\n 7: 4 9  chip  eth0\n"))
	l := got.Lines[0]
	if got.CountOn(l, 2) != 9 || got.CountOn(l, 1) != 0 || l.Total() != 13 {
		t.Errorf("CountOn/Total wrong: %v", l)
	}
	if n, ok := l.Number(); !ok || n != 7 {
		t.Errorf("Number = %d, %v", n, ok)
	}
}

func TestParseSoftirqs(t *testing.T) {
	in := "                    CPU0       CPU1       \n" +
		"          HI:          0          0\n" +
		"      NET_TX:          4          1\n" +
		"      NET_RX:      22467      30631\n" +
		"     BROKEN:          x\n"
	got, ok := ParseSoftirqs([]byte(in))
	if !ok || !slices.Equal(got.CPUs, []int{0, 1}) {
		t.Fatalf("ok %v cpus %v", ok, got.CPUs)
	}
	if got.CountOn("NET_RX", 1) != 30631 || got.CountOn("NET_TX", 0) != 4 || got.CountOn("NET_RX", 5) != 0 {
		t.Errorf("counts = %v", got.Counts)
	}
	if _, ok := got.Counts["BROKEN"]; ok {
		t.Error("malformed line kept")
	}
	if _, ok := ParseSoftirqs([]byte("garbage\n")); ok {
		t.Error("no header accepted")
	}
}

func FuzzParseInterrupts(f *testing.F) {
	f.Add([]byte("CPU0 CPU1\n 1: 2 3  x  eth0, eth1\nNMI: 1 2 y\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ParseInterrupts(data)
		ParseSoftirqs(data)
	})
}
