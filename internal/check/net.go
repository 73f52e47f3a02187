package check

import (
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/finding"
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
		for i, irq := range d.IRQs {
			cpu := pref[(i+1)%len(pref)]
			irqCPUs = append(irqCPUs, cpu)
			out = append(out, Spread{Path: "/proc/irq/" + irq.IRQ + "/smp_affinity", Value: CPUMask([]int{cpu})})
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
				out = append(out, Spread{Path: "/sys/class/net/" + d.Name + "/queues/" + q.Name + "/rps_cpus", Value: CPUMask(rps)})
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

// CPUMask writes CPUs as the hexadecimal mask the kernel reads in
// smp_affinity and rps_cpus ("3" for CPUs 0 and 1, "c" for 2 and 3), with
// a comma every 32 bits.
func CPUMask(cpus []int) string {
	var m big.Int
	for _, c := range cpus {
		if c >= 0 {
			m.SetBit(&m, c, 1)
		}
	}
	hex := m.Text(16)
	var groups []string
	for len(hex) > 8 {
		groups = append([]string{hex[len(hex)-8:]}, groups...)
		hex = hex[:len(hex)-8]
	}
	return strings.Join(append([]string{hex}, groups...), ",")
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

// netGovernor flags a cpufreq governor that keeps the clock low on the
// CPUs that handle the network interrupts.
func netGovernor(f NetFacts, phases []result.Phase) []finding.Finding {
	busy := map[int]bool{}
	for _, p := range netPhases(phases) {
		for _, l := range p.figs.CPULoad {
			if l.IRQ+l.Softirq >= 10 {
				busy[l.CPU] = true
			}
		}
	}
	var cpus []int
	for cpu := range busy {
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
		Evidence: []string{fmt.Sprintf("cpu %s: governor powersave, at least 10%% of the time in interrupt context", cpuList(cpus))},
		Advice:   "Interrupt work is short bursts that ondemand-style governors see poorly and powersave never clocks up for: use schedutil or performance (`echo schedutil > /sys/devices/system/cpu/cpufreq/policyN/scaling_governor`).",
	}}
}

// isNetPhase reports whether a phase is a traffic step of `boardbench net`.
func isNetPhase(name string) bool {
	switch name {
	case result.PhaseNetTCPForward, result.PhaseNetTCPReverse, result.PhaseNetTCPBidir,
		result.PhaseNetSmallPackets, result.PhaseNetUDP, result.PhaseNetWatch:
		return true
	}
	return false
}
