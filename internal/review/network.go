package review

import (
	"fmt"
	"slices"
	"strings"

	"boardbench/internal/kernelfile"
)

// ASPMPolicyPath is the PCIe ASPM policy of the whole machine.
const ASPMPolicyPath = "/sys/module/pcie_aspm/parameters/policy"

// ASPMPowersave reports whether an ASPM policy attribute selects a
// power-saving policy (powersave, powersupersave).
func ASPMPowersave(attr string) bool {
	sel := kernelfile.ParseChoice(attr).Selected
	return sel == "powersave" || sel == "powersupersave"
}

func pcieASPMPowersave(e *Env) []Finding {
	v, ok := e.Read(AreaNetwork, ASPMPolicyPath)
	if !ok || !ASPMPowersave(v) {
		return nil
	}
	return []Finding{warn(
		fmt.Sprintf("PCIe ASPM policy is %s: links doze between packets, which ruins network receive throughput and adds storage latency", kernelfile.ParseChoice(v).Selected),
		"echo default > "+ASPMPolicyPath+" (boardbench review --apply does this until restore)",
		"pcie_aspm.policy=default on the kernel command line (extlinux.conf APPEND, cmdline.txt, GRUB_CMDLINE_LINUX) or /etc/rc.local",
		"about 0.1 W more at idle (measured on a ROCK 5B)", ev(ASPMPolicyPath, v))}
}

// busyIRQCount is the threshold of interrupts a device line must have
// served to count as busy.
const busyIRQCount = 1000

// busyIRQ is a device interrupt line and the CPU that serves it.
type busyIRQ struct {
	irq   kernelfile.Interrupt
	cpu   int
	total uint64
}

// singleCPUIRQs finds the situation irq_single_cpu reports: at least two
// busy device interrupts, every one served (99 % or more) by the same CPU.
// It returns that CPU and the lines, busiest first; ok is false otherwise.
func singleCPUIRQs(e *Env) (cpu int, lines []busyIRQ, ok bool) {
	raw, ok := e.Read(AreaNetwork, "/proc/interrupts")
	if !ok {
		return 0, nil, false
	}
	t, ok := kernelfile.ParseInterrupts([]byte(raw))
	if !ok || len(t.CPUs) < 2 {
		return 0, nil, false
	}
	for _, l := range t.Lines {
		if _, ok := l.Number(); !ok || l.Total() < busyIRQCount {
			continue
		}
		desc := strings.ToLower(l.Desc)
		if strings.Contains(desc, "timer") || strings.Contains(desc, "ipi") {
			continue // per-CPU interrupts, served where they arise
		}
		best := 0
		for i := range l.Counts {
			if l.Counts[i] > l.Counts[best] {
				best = i
			}
		}
		lines = append(lines, busyIRQ{l, t.CPUs[best], l.Total()})
		if l.Counts[best]*100 < l.Total()*99 {
			return 0, nil, false // this one is spread: not every interrupt on one CPU
		}
	}
	if len(lines) < 2 {
		return 0, nil, false
	}
	cpu = lines[0].cpu
	for _, b := range lines {
		if b.cpu != cpu {
			return 0, nil, false
		}
	}
	slices.SortStableFunc(lines, func(a, b busyIRQ) int {
		switch {
		case a.total > b.total:
			return -1
		case a.total < b.total:
			return 1
		}
		return 0
	})
	return cpu, lines, true
}

func irqSingleCPU(e *Env) []Finding {
	cpu, lines, ok := singleCPUIRQs(e)
	if !ok {
		return nil
	}
	evidence := []string{fmt.Sprintf("/proc/interrupts: %d busy device interrupts, all served by CPU%d", len(lines), cpu)}
	for _, b := range lines[:min(5, len(lines))] {
		evidence = append(evidence, fmt.Sprintf("/proc/interrupts: IRQ %s (%s) %d on CPU%d", b.irq.IRQ, strings.Join(b.irq.Actions, ", "), b.total, cpu))
		if aff, ok := e.Read(AreaNetwork, "/proc/irq/"+b.irq.IRQ+"/smp_affinity_list"); ok {
			evidence = append(evidence, ev("/proc/irq/"+b.irq.IRQ+"/smp_affinity_list", aff))
		}
	}
	return []Finding{warn(
		fmt.Sprintf("every busy device interrupt is served by CPU%d: under network or storage load that CPU saturates first", cpu),
		"spread them: install irqbalance, or move the network and storage interrupts to other CPUs (echo 2 > /proc/irq/N/smp_affinity); receive packet steering spreads network work (boardbench review --apply moves them to the other CPUs, the faster cluster first, and sets rps_cpus, until restore)",
		"/etc/rc.local, or the board's hardware-optimisation service (Armbian)", "none", evidence...)}
}
