package check

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/finding"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/netif"
	"boardbench/internal/result"
)

// Finding ids of the network rules.
const (
	IDNetOneCPU         = "net-one-cpu"
	IDNetCoalescingOff  = "net-coalescing-off"
	IDNetUSB2           = "net-usb2"
	IDNetLinkBelow      = "net-link-below"
	IDNetHalfDuplex     = "net-half-duplex"
	IDNetEEE            = "net-eee"
	IDNetGovernorLow    = "net-governor-low"
	netSaturatedPct     = 40.0
	netIdleOthersPct    = 25.0
	netUSB2MaxMbps      = 480.0
	netLowGovernorNames = "powersave"
)

// The coalescing boardbench suggests (and --apply sets) where it is off:
// wait up to 50 µs or 32 frames before interrupting.
const (
	SuggestedRxUsecs  = 50
	SuggestedRxFrames = 32
)

// NetCluster is one cluster as the network rules see it, fastest first.
type NetCluster struct {
	CPUs []int
	Core string
	// MaxMHz is the cluster's highest clock; nil when unknown.
	MaxMHz *float64
}

// NetFacts are what the network rules need besides the phases.
type NetFacts struct {
	// Interfaces are the measured interfaces as described before the
	// first step.
	Interfaces []netif.Details
	// CPUs are the online CPUs.
	CPUs []int
	// Clusters are the CPU clusters, fastest first (big before LITTLE).
	Clusters []NetCluster
	// Governors maps a CPU to its cpufreq governor ("" when none).
	Governors map[int]string
	// Policies are the monitor's cpufreq policies, in the order of each
	// sample's ClockMHz (the result's Monitor.Policies).
	Policies []result.Policy
	// Unmovable are the interrupts that did not move when an affinity
	// was written (net --apply read their effective affinity back): never
	// advised again, and their CPU is spared from receive steering.
	Unmovable []result.NetUnmoved
}

// unmovable returns the record of an interrupt that cannot move, nil when
// it is not recorded. An interrupt matches by number and handler names,
// so a renumbered interrupt after a reboot is not taken for another.
func (f NetFacts) unmovable(irq netif.IRQ) *result.NetUnmoved {
	for i, u := range f.Unmovable {
		if u.IRQ == irq.IRQ && u.Name == irq.Name {
			return &f.Unmovable[i]
		}
	}
	return nil
}

// PreferredCPUs returns the CPUs network work should be spread over: those
// of the fastest cluster, or every CPU when the fastest has only one or
// the clusters are unknown.
func (f NetFacts) PreferredCPUs() []int {
	if len(f.Clusters) > 1 && len(f.Clusters[0].CPUs) > 1 {
		return f.Clusters[0].CPUs
	}
	return f.CPUs
}

// NetFindings runs the network rules over the phases of a `boardbench net`
// result and the interfaces' descriptions.
func NetFindings(f NetFacts, phases []result.Phase) []finding.Finding {
	var out []finding.Finding
	out = append(out, netOneCPU(f, phases)...)
	for _, d := range f.Interfaces {
		out = append(out, netInterfaceRules(d)...)
	}
	out = append(out, netGovernor(f, phases)...)
	return out
}

// netPhase is one step's figures.
type netPhase struct {
	name string
	figs result.NetFigures
}

func netPhases(phases []result.Phase) []netPhase {
	var out []netPhase
	for _, p := range phases {
		var fig result.NetFigures
		if len(p.Figures) == 0 || json.Unmarshal(p.Figures, &fig) != nil || len(fig.CPULoad) == 0 {
			continue
		}
		out = append(out, netPhase{p.Name, fig})
	}
	return out
}

// netOneCPU finds steps where one CPU spends much of its time in interrupt
// context while the others are mostly idle, and says how to spread the
// interfaces' interrupts and receive processing.
func netOneCPU(f NetFacts, phases []result.Phase) []finding.Finding {
	if len(f.CPUs) < 2 {
		return nil
	}
	var names, evidence []string
	hot := -1
	for _, p := range netPhases(phases) {
		cpu, ok := saturatedCPU(p.figs.CPULoad)
		if !ok {
			continue
		}
		hot = cpu
		names = append(names, p.name)
		var cells []string
		for _, l := range p.figs.CPULoad {
			cells = append(cells, fmt.Sprintf("cpu%d %.0f%% (irq %.0f, softirq %.0f)", l.CPU, l.Busy(), l.IRQ, l.Softirq))
		}
		evidence = append(evidence, p.name+": "+strings.Join(cells, ", "))
		var irqs []string
		for _, i := range p.figs.Interrupts {
			irqs = append(irqs, fmt.Sprintf("irq %s (%s) on cpu%d: %d", i.IRQ, i.Name, i.CPU, i.Count))
		}
		if len(irqs) > 0 {
			evidence = append(evidence, p.name+": "+strings.Join(irqs, "; "))
		}
	}
	if hot < 0 {
		return nil
	}
	cmds := SpreadCommands(f)
	var stuck []string
	for _, d := range f.Interfaces {
		for _, irq := range d.IRQs {
			if u := f.unmovable(irq); u != nil {
				stuck = append(stuck, fmt.Sprintf("irq %s (%s) stays on cpu %s", u.IRQ, u.Name, u.Effective))
				evidence = append(evidence, fmt.Sprintf("irq %s (%s) did not move: affinity %s written, effective affinity cpu %s (%s)",
					u.IRQ, u.Name, u.Wanted, u.Effective, u.Reason))
			}
		}
	}
	advice := "Spread the network interrupts and receive processing over the other CPUs"
	if len(f.Clusters) > 1 {
		advice += fmt.Sprintf(" (the fastest cluster, %s: cpu %s)", f.Clusters[0].Core, cpuList(f.PreferredCPUs()))
	}
	advice += ". As root:"
	if len(cmds) == 0 {
		advice = "Spread the network interrupts and receive processing over the other CPUs: the interface's interrupts and queues were not found, so boardbench cannot give the exact commands."
	} else {
		advice += "\n  " + strings.Join(cmds, "\n  ") + "\n`boardbench net --apply` tries these and restores the previous values at the end."
	}
	if len(stuck) > 0 {
		advice += "\nThese interrupts cannot be moved (the interrupt controller keeps them where they are; writing their affinity did not change " +
			"their effective affinity), so no affinity is advised for them; receive packet steering moves the packets' work off their CPU: " +
			strings.Join(stuck, "; ") + "."
	}
	return []finding.Finding{{
		ID:       IDNetOneCPU,
		Severity: finding.Warning,
		Title:    fmt.Sprintf("cpu%d is saturated by interrupt work while the other CPUs are mostly idle", hot),
		Evidence: evidence,
		Advice:   advice,
		Phases:   names,
	}}
}

// saturatedCPU returns the CPU whose hard and soft interrupt time is at
// least netSaturatedPct while every other CPU is busy less than
// netIdleOthersPct on average.
func saturatedCPU(load []result.NetCPULoad) (int, bool) {
	if len(load) < 2 {
		return 0, false
	}
	hot := slices.MaxFunc(load, func(a, b result.NetCPULoad) int {
		return cmpFloat(a.IRQ+a.Softirq, b.IRQ+b.Softirq)
	})
	if hot.IRQ+hot.Softirq < netSaturatedPct {
		return 0, false
	}
	var others float64
	for _, l := range load {
		if l.CPU != hot.CPU {
			others += l.Busy()
		}
	}
	if others/float64(len(load)-1) >= netIdleOthersPct {
		return 0, false
	}
	return hot.CPU, true
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Spread is one change that spreads network work: a file and the value to
// write.
type Spread struct {
	Path, Value string
	// IRQ is the interrupt of an smp_affinity write ("" for an RPS mask),
	// Name its handlers, CPUs the CPUs the mask allows.
	IRQ, Name string
	CPUs      []int
}

// SpreadPlan computes the interrupt affinities and RPS masks that spread
// each interface's work over the preferred CPUs (the fastest cluster):
// interrupt i of an interface goes to preferred CPU i+1 (round robin, so
// that the first CPU, which usually serves everything else, is spared
// when there are enough), and every receive queue steers its packets to
// the preferred CPUs that take none of the interface's interrupts (to all
// of them but the first interrupt's when that leaves none).
func SpreadPlan(f NetFacts) []Spread {
	pref := f.PreferredCPUs()
	if len(pref) == 0 {
		return nil
	}
	var out []Spread
	for _, d := range f.Interfaces {
		var irqCPUs []int
		i := 0
		for _, irq := range d.IRQs {
			if u := f.unmovable(irq); u != nil {
				// It stays where it is: its CPU serves it, so receive
				// steering spares that CPU.
				if cpus, err := cpu.ParseCPUList(u.Effective); err == nil {
					irqCPUs = append(irqCPUs, cpus...)
				}
				continue
			}
			target := pref[(i+1)%len(pref)]
			i++
			irqCPUs = append(irqCPUs, target)
			out = append(out, Spread{Path: "/proc/irq/" + irq.IRQ + "/smp_affinity", Value: cpu.FormatCPUMask([]int{target}),
				IRQ: irq.IRQ, Name: irq.Name, CPUs: []int{target}})
		}
		rps := slices.DeleteFunc(slices.Clone(pref), func(c int) bool { return slices.Contains(irqCPUs, c) })
		if len(rps) == 0 && len(irqCPUs) > 0 {
			rps = slices.DeleteFunc(slices.Clone(pref), func(c int) bool { return c == irqCPUs[0] })
		}
		if len(rps) == 0 {
			rps = pref
		}
		for _, q := range d.Queues {
			if strings.HasPrefix(q.Name, "rx-") {
				out = append(out, Spread{Path: "/sys/class/net/" + d.Name + "/queues/" + q.Name + "/rps_cpus", Value: cpu.FormatCPUMask(rps)})
			}
		}
	}
	return out
}

// SpreadCommands returns SpreadPlan as shell commands.
func SpreadCommands(f NetFacts) []string {
	var out []string
	for _, s := range SpreadPlan(f) {
		out = append(out, fmt.Sprintf("echo %s > %s", s.Value, s.Path))
	}
	return out
}

func cpuList(cpus []int) string {
	var s []string
	for _, c := range cpus {
		s = append(s, strconv.Itoa(c))
	}
	return strings.Join(s, ",")
}

// netInterfaceRules are the rules about one interface's hardware and link.
func netInterfaceRules(d netif.Details) []finding.Finding {
	var out []finding.Finding
	if d.Coalesce != nil && d.Coalesce.Minimal() && !d.Virtual {
		out = append(out, finding.Finding{
			ID: IDNetCoalescingOff, Severity: finding.Info,
			Title:    fmt.Sprintf("%s raises an interrupt for every received frame (coalescing off)", d.Name),
			Evidence: []string{fmt.Sprintf("%s: rx-usecs %d, rx-frames %d, adaptive-rx off (driver %s)", d.Name, d.Coalesce.RxUsecs, d.Coalesce.RxFrames, d.Driver)},
			Advice: fmt.Sprintf("Let the NIC gather frames before it interrupts: `ethtool -C %s rx-usecs %d rx-frames %d`. "+
				"Fewer interrupts leave more CPU time for the packets, at the cost of up to %d µs more latency per packet.",
				d.Name, SuggestedRxUsecs, SuggestedRxFrames, SuggestedRxUsecs),
		})
	}
	if d.Bus == "USB" && d.USB != nil && d.USB.SpeedMbps != nil && *d.USB.SpeedMbps <= netUSB2MaxMbps {
		out = append(out, finding.Finding{
			ID: IDNetUSB2, Severity: finding.Warning,
			Title:    fmt.Sprintf("%s is a USB adapter on a USB 2 link (%.0f Mbit/s)", d.Name, *d.USB.SpeedMbps),
			Evidence: []string{fmt.Sprintf("%s: driver %s, USB device %s at %.0f Mbit/s (%s)", d.Name, d.Driver, d.USB.Device, *d.USB.SpeedMbps, d.USB.SpeedName)},
			Advice:   "A USB 2 bus carries about 300 Mbit/s of network traffic at best, shared with every other device on it, and each transfer costs CPU time in the USB host controller's interrupt. Use a USB 3 port or a PCIe or on-board NIC where the board has one.",
		})
	}
	speed := d.SpeedMbps
	duplex := d.Duplex
	if d.Link != nil {
		if d.Link.SpeedMbps != nil {
			speed = d.Link.SpeedMbps
		}
		if d.Link.Duplex != "" {
			duplex = d.Link.Duplex
		}
		if common := bestCommonMode(d.Link.Advertised, d.Link.PeerAdvertised); common > 0 && speed != nil && *speed < common {
			out = append(out, finding.Finding{
				ID: IDNetLinkBelow, Severity: finding.Warning,
				Title:    fmt.Sprintf("%s linked at %d Mbit/s although both ends support %d Mbit/s", d.Name, *speed, common),
				Evidence: []string{fmt.Sprintf("%s: link %d Mbit/s; this end advertises %s; the other end %s", d.Name, *speed, strings.Join(d.Link.Advertised, " "), strings.Join(d.Link.PeerAdvertised, " "))},
				Advice:   "A cable with a broken pair or a poor contact makes the link fall back to a lower speed: try another cable (Cat 5e or better) and port, and check that autonegotiation is on at both ends.",
			})
		}
	}
	if duplex == "half" {
		out = append(out, finding.Finding{
			ID: IDNetHalfDuplex, Severity: finding.Warning,
			Title:    fmt.Sprintf("%s runs half duplex", d.Name),
			Evidence: []string{fmt.Sprintf("%s: duplex half", d.Name)},
			Advice:   "Half duplex cannot send and receive at once, so bidirectional throughput collapses. A speed or duplex forced at one end only causes it: leave both ends on autonegotiation.",
		})
	}
	if d.EEE != nil && d.EEE.Active {
		out = append(out, finding.Finding{
			ID: IDNetEEE, Severity: finding.Info,
			Title:    fmt.Sprintf("Energy-Efficient Ethernet is active on %s", d.Name),
			Evidence: []string{fmt.Sprintf("%s: EEE enabled %v, active %v, tx LPI %v", d.Name, d.EEE.Enabled, d.EEE.Active, d.EEE.TxLPI)},
			Advice:   fmt.Sprintf("Some PHYs lose throughput or add latency waking from low-power idle. If the figures are below the link speed, compare with EEE off: `ethtool --set-eee %s eee off`.", d.Name),
		})
	}
	return out
}

// bestCommonMode returns the highest speed (Mbit/s) of the link modes both
// ends advertise ("1000baseT/Full"); 0 when none is known.
func bestCommonMode(ours, peer []string) int64 {
	var best int64
	for _, m := range ours {
		if !slices.Contains(peer, m) {
			continue
		}
		num := m
		if i := strings.Index(m, "base"); i > 0 {
			num = m[:i]
		} else {
			continue
		}
		if v, err := strconv.ParseInt(num, 10, 64); err == nil && v > best {
			best = v
		}
	}
	return best
}

// netIRQBusyPct is the share of a CPU's time in hard and soft interrupt
// context from which it counts as handling the network traffic of a step.
const netIRQBusyPct = 10.0

// netGovernor judges the clock of the clusters whose CPUs handle the
// network interrupts: in the monitor samples of the traffic steps where
// those CPUs spent at least netIRQBusyPct of their time in interrupt
// context, a median clock below LowClockPct of the cluster's maximum (over
// at least LowClockMinSamples samples) means the governor holds the
// traffic back, whatever its name. Without enough clock samples (no
// cpufreq in the monitor) only the powersave governor, which by definition
// keeps the lowest clock, is reported.
func netGovernor(f NetFacts, phases []result.Phase) []finding.Finding {
	type judged struct {
		busy   []int
		steps  []string
		clocks []float64
	}
	per := make([]judged, len(f.Policies))
	busyAll := map[int]bool{}
	var steps []string
	for _, p := range phases {
		var fig result.NetFigures
		if !isNetPhase(p.Name) || len(p.Figures) == 0 || json.Unmarshal(p.Figures, &fig) != nil {
			continue
		}
		var busy []int
		for _, l := range fig.CPULoad {
			if l.IRQ+l.Softirq >= netIRQBusyPct {
				busy = append(busy, l.CPU)
				busyAll[l.CPU] = true
			}
		}
		if len(busy) == 0 {
			continue
		}
		steps = append(steps, p.Name)
		for i, pol := range f.Policies {
			hit := slices.DeleteFunc(slices.Clone(busy), func(c int) bool { return !slices.Contains(pol.CPUs, c) })
			if len(hit) == 0 {
				continue
			}
			j := &per[i]
			for _, c := range hit {
				if !slices.Contains(j.busy, c) {
					j.busy = append(j.busy, c)
				}
			}
			j.steps = append(j.steps, p.Name)
			for _, smp := range p.Samples {
				if i < len(smp.ClockMHz) && smp.ClockMHz[i] != nil {
					j.clocks = append(j.clocks, *smp.ClockMHz[i])
				}
			}
		}
	}
	var ev, govs, judgedCPUs []string
	var low []int
	for i, pol := range f.Policies {
		j := per[i]
		top := f.maxMHzOf(pol.CPUs)
		if len(j.clocks) < LowClockMinSamples || top <= 0 {
			continue
		}
		judgedCPUs = append(judgedCPUs, pol.Label)
		med := median(j.clocks)
		if med >= top*LowClockPct/100 {
			continue
		}
		slices.Sort(j.busy)
		low = append(low, j.busy...)
		gov := f.Governors[pol.CPUs[0]]
		govs = append(govs, fmt.Sprintf("cluster %s: %s", pol.Label, textOr(gov, "governor unknown")))
		ev = append(ev, fmt.Sprintf("cluster %s (cpu %s in interrupt context during %s): median clock %.0f MHz, %.0f%% of its %.0f MHz maximum, in %d samples; governor %s",
			pol.Label, cpuList(j.busy), strings.Join(j.steps, ", "), med, med/top*100, top, len(j.clocks), textOr(gov, "unknown")))
	}
	advice := "Interrupt work comes in short bursts that sampling governors (ondemand, conservative) see poorly and powersave never clocks up for: " +
		"use schedutil or performance while the board moves traffic (`echo schedutil > /sys/devices/system/cpu/cpufreq/policyN/scaling_governor`)."
	if len(ev) > 0 {
		slices.Sort(low)
		return []finding.Finding{{
			ID: IDNetGovernorLow, Severity: finding.Warning,
			Title:    fmt.Sprintf("The clock of cpu %s stayed low while it handled network traffic (%s)", cpuList(slices.Compact(low)), strings.Join(govs, "; ")),
			Evidence: ev, Advice: advice, Phases: steps,
		}}
	}
	if len(judgedCPUs) > 0 {
		return nil // the samples show the clock was not held low
	}
	var cpus []int
	for cpu := range busyAll {
		if f.Governors[cpu] == netLowGovernorNames {
			cpus = append(cpus, cpu)
		}
	}
	if len(cpus) == 0 {
		return nil
	}
	slices.Sort(cpus)
	return []finding.Finding{{
		ID: IDNetGovernorLow, Severity: finding.Warning,
		Title:    fmt.Sprintf("The powersave governor keeps cpu %s at its lowest clock while it handles network traffic", cpuList(cpus)),
		Evidence: []string{fmt.Sprintf("cpu %s: governor powersave, at least %.0f%% of the time in interrupt context; the monitor recorded too few clock samples to measure the clock", cpuList(cpus), netIRQBusyPct)},
		Advice:   advice, Phases: steps,
	}}
}

// maxMHzOf returns the highest clock of the clusters holding any of cpus;
// 0 when unknown.
func (f NetFacts) maxMHzOf(cpus []int) float64 {
	top := 0.0
	for _, c := range f.Clusters {
		if c.MaxMHz != nil && slices.ContainsFunc(c.CPUs, func(x int) bool { return slices.Contains(cpus, x) }) {
			top = max(top, *c.MaxMHz)
		}
	}
	return top
}

// median returns the median of vs (not empty); vs is sorted in place.
func median(vs []float64) float64 {
	slices.Sort(vs)
	m := vs[len(vs)/2]
	if len(vs)%2 == 0 {
		m = (vs[len(vs)/2-1] + m) / 2
	}
	return m
}

func textOr(s, alt string) string {
	if s == "" {
		return alt
	}
	return s
}

// isNetPhase reports whether a phase is a traffic step of `boardbench net`.
func isNetPhase(name string) bool {
	switch name {
	case result.PhaseNetTCPForward, result.PhaseNetTCPReverse, result.PhaseNetTCPBidir,
		result.PhaseNetSmallPackets, result.PhaseNetUDP, result.PhaseNetUDPBidir, result.PhaseNetWatch, result.PhaseNetWatchApplied:
		return true
	}
	return false
}
