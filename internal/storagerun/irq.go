package storagerun

import (
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
)

// readInterrupts reads /proc/interrupts; ok is false when it cannot.
func readInterrupts(h *host.Host) (kernelfile.Interrupts, bool) {
	data, err := h.ReadFile("/proc/interrupts")
	if err != nil {
		return kernelfile.Interrupts{}, false
	}
	return kernelfile.ParseInterrupts(data)
}

// busiestIRQ returns the numbered interrupt whose count grew most from
// before to after (during the storage test: the storage's) with the CPUs
// that handled it; "" when none grew.
func busiestIRQ(before, after kernelfile.Interrupts) (string, []int) {
	prev := map[string]kernelfile.Interrupt{}
	for _, l := range before.Lines {
		prev[l.IRQ] = l
	}
	var best string
	var bestCPUs []int
	var bestDelta uint64
	for _, l := range after.Lines {
		if _, numbered := l.Number(); !numbered {
			continue
		}
		p := prev[l.IRQ]
		var delta uint64
		var cpus []int
		for i, c := range l.Counts {
			var was uint64
			if i < len(p.Counts) {
				was = p.Counts[i]
			}
			if c > was && i < len(after.CPUs) {
				delta += c - was
				cpus = append(cpus, after.CPUs[i])
			}
		}
		if delta > bestDelta {
			best, bestCPUs, bestDelta = strings.TrimSpace(l.IRQ+" "+strings.Join(l.Actions, ", ")), cpus, delta
		}
	}
	return best, bestCPUs
}
