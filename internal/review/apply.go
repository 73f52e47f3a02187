package review

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"

	"boardbench/internal/host"
	"boardbench/internal/inventory/cpu"
)

// Change is one runtime change of `review --apply`.
type Change struct {
	// Finding is the id of the finding the change answers.
	Finding string `json:"finding"`
	Path    string `json:"path"`
	From    string `json:"from"`
	To      string `json:"to"`
	// Error is set when the change could not be made.
	Error string `json:"error,omitempty"`
}

// Setter makes one change, recording the previous value first
// (tune.Guard.SetFile).
type Setter interface {
	SetFile(path, value string) error
}

// PlanChanges lists the safe runtime subset of fixes for the machine behind
// h: ondemand tunables, the PCIe ASPM policy, receive packet steering,
// the affinity of device interrupts all served by one CPU, and devfreq
// governors and caps. Boot files are never among them, and a
// devfreq device at the performance governor is left alone (it may be
// someone's choice). Values equal to the wanted one are left out.
func PlanChanges(h *host.Host, now time.Time) []Change {
	e := NewEnv(h, now)
	var out []Change
	add := func(id, p, from, to string) {
		if strings.TrimSpace(from) != to {
			out = append(out, Change{Finding: id, Path: p, From: from, To: to})
		}
	}
	for _, d := range OndemandDirs(e) {
		if busy, _ := e.Read(AreaCPU, d+"/io_is_busy"); busy == "1" {
			continue
		}
		for _, t := range OndemandTunables {
			if v, ok := e.Read(AreaCPU, d+"/"+t.name); ok {
				add("ondemand_io_is_busy", d+"/"+t.name, v, t.want)
			}
		}
	}
	if v, ok := e.Read(AreaNetwork, ASPMPolicyPath); ok && ASPMPowersave(v) {
		add("pcie_aspm_powersave", ASPMPolicyPath, v, "default")
	}
	out = append(out, planDevfreq(e)...)
	out = append(out, planRPS(e)...)
	out = append(out, planIRQAffinity(e)...)
	return out
}

// planIRQAffinity answers irq_single_cpu: the busy device interrupts that
// one CPU serves are moved, busiest first, one CPU each in turn, to the
// CPUs IRQTargets chooses. An interrupt whose smp_affinity is not readable
// is left alone.
func planIRQAffinity(e *Env) []Change {
	busy, lines, ok := singleCPUIRQs(e)
	if !ok {
		return nil
	}
	info := cpu.Collect(e.H)
	targets := IRQTargets(info.Clusters, cpu.OnlineCPUs(e.H), busy)
	if len(targets) == 0 {
		return nil
	}
	var out []Change
	for i, l := range lines {
		p := "/proc/irq/" + l.irq.IRQ + "/smp_affinity"
		cur, ok := e.Read(AreaNetwork, p)
		if !ok {
			continue
		}
		to := cpu.FormatCPUMask([]int{targets[i%len(targets)]})
		if sameMask(cur, to) {
			continue
		}
		out = append(out, Change{Finding: "irq_single_cpu", Path: p, From: cur, To: to})
	}
	return out
}

// IRQTargets chooses the CPUs to move interrupts to from the CPU busy that
// serves them all: the online CPUs of the fastest cluster (highest
// cpu_capacity, else highest maximum clock) other than busy, or, when that
// cluster has no other CPU or the clusters do not differ, every online CPU
// other than busy. None on a machine of one CPU.
func IRQTargets(clusters []cpu.Cluster, online []int, busy int) []int {
	isOnline := func(c int) bool { return slices.Contains(online, c) && c != busy }
	var fastest *cpu.Cluster
	differ := false
	for i := range clusters {
		c := &clusters[i]
		if fastest == nil {
			fastest = c
			continue
		}
		switch d := compareSpeed(*c, *fastest); {
		case d > 0:
			fastest, differ = c, true
		case d < 0:
			differ = true
		}
	}
	if fastest != nil && differ {
		var out []int
		for _, c := range fastest.CPUs {
			if isOnline(c) {
				out = append(out, c)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	var out []int
	for _, c := range online {
		if isOnline(c) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// compareSpeed orders clusters by cpu_capacity when both have one, else by
// their highest clock; 0 when that tells them apart not at all.
func compareSpeed(a, b cpu.Cluster) int {
	if a.Capacity != nil && b.Capacity != nil && *a.Capacity != *b.Capacity {
		return cmp.Compare(*a.Capacity, *b.Capacity)
	}
	if a.MaxMHz != nil && b.MaxMHz != nil {
		return cmp.Compare(*a.MaxMHz, *b.MaxMHz)
	}
	return 0
}

// sameMask reports whether two kernel CPU masks ("00000004", "4",
// "0,00000004") select the same CPUs.
func sameMask(a, b string) bool {
	norm := func(s string) string {
		s = strings.TrimLeft(strings.ReplaceAll(strings.TrimSpace(s), ",", ""), "0")
		return strings.ToLower(s)
	}
	return norm(a) == norm(b)
}

// planDevfreq raises held-low or capped memory, GPU and NPU clocks.
func planDevfreq(e *Env) []Change {
	var out []Change
	names, _ := e.H.ReadDirNames("/sys/class/devfreq")
	for _, n := range names {
		if devfreqKind(n) == "" {
			continue
		}
		dir := "/sys/class/devfreq/" + n
		gov, ok := e.Read(AreaMemory, dir+"/governor")
		if !ok || gov == "performance" {
			continue
		}
		avGov, _ := e.Read(AreaMemory, dir+"/available_governors")
		avail, _ := e.Read(AreaMemory, dir+"/available_frequencies")
		cur, _ := e.Read(AreaMemory, dir+"/cur_freq")
		top, hasTop := highestFreq(avail)
		if def := DevfreqDefaultGovernor(avGov); def != "" &&
			(gov == "powersave" || (gov == "userspace" && hasTop && cur != strconv.FormatInt(top, 10))) {
			out = append(out, Change{Finding: "devfreq_governor", Path: dir + "/governor", From: gov, To: def})
		}
		if mx, ok := e.Read(AreaMemory, dir+"/max_freq"); ok && hasTop {
			if v, err := strconv.ParseInt(mx, 10, 64); err == nil && v < top {
				out = append(out, Change{Finding: "devfreq_governor", Path: dir + "/max_freq", From: mx, To: strconv.FormatInt(top, 10)})
			}
		}
	}
	return out
}

// planRPS answers irq_single_cpu for network receive work: for each
// physical interface whose interrupts are among the busy lines the finding
// names (an interrupt action equal to the interface's name, or starting
// with it and a dash, such as "eth0-rx-0"), every receive queue that steers
// nothing (rps_cpus all zero) is set to the CPUs IRQTargets chooses (the
// faster cluster, without the CPU that serves every interrupt). A queue with
// a mask someone set is left alone; with irq_single_cpu quiet, nothing is
// planned.
func planRPS(e *Env) []Change {
	busy, lines, ok := singleCPUIRQs(e)
	if !ok {
		return nil
	}
	targets := IRQTargets(cpu.Collect(e.H).Clusters, cpu.OnlineCPUs(e.H), busy)
	if len(targets) == 0 {
		return nil
	}
	mask := cpu.FormatCPUMask(targets)
	var out []Change
	ifaces, _ := e.H.ReadDirNames("/sys/class/net")
	for _, n := range ifaces {
		if !e.H.Exists("/sys/class/net/"+n+"/device") || !servesInterface(lines, n) {
			continue // virtual interfaces (lo, bridges, veth), or not named by the finding
		}
		queues, _ := e.H.Glob("/sys/class/net/" + n + "/queues/rx-*/rps_cpus")
		for _, q := range queues {
			v, ok := e.Read(AreaNetwork, q)
			if ok && strings.Trim(v, "0,") == "" {
				out = append(out, Change{Finding: "irq_single_cpu", Path: q, From: v, To: mask})
			}
		}
	}
	return out
}

// servesInterface reports whether one of the interrupt lines belongs to
// network interface ifname: an action named ifname or ifname-SOMETHING.
func servesInterface(lines []busyIRQ, ifname string) bool {
	for _, l := range lines {
		for _, a := range l.irq.Actions {
			if a == ifname || strings.HasPrefix(a, ifname+"-") {
				return true
			}
		}
	}
	return false
}

// Apply makes the changes through s, in order, and returns them with the
// error of each that failed.
func Apply(s Setter, changes []Change) []Change {
	out := make([]Change, len(changes))
	for i, c := range changes {
		if err := s.SetFile(c.Path, c.To); err != nil {
			c.Error = err.Error()
		}
		out[i] = c
	}
	return out
}
