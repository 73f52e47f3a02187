package cpu

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// resolveAmbiguousParts handles "CPU part : 0xc07 & 0xc0f": some vendor
// kernels print every part of a big.LITTLE SoC for all CPUs. When the CPUs
// fall into as many clock (or capacity) ranks as there are parts, the lowest
// part number is matched to the slowest rank (ARM numbers its LITTLE cores
// below their big partners) and the result is marked as a guess; otherwise
// the core stays "A or B".
func (c *collector) resolveAmbiguousParts() {
	groups := map[string][]int{} // part set → CPU ids
	var order []string
	for _, cpu := range c.info.CPUs {
		parts := c.parts[cpu.ID]
		if len(parts) < 2 {
			continue
		}
		key := fmt.Sprint(parts)
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], cpu.ID)
	}
	for _, key := range order {
		ids := groups[key]
		parts := append([]uint64(nil), c.parts[ids[0]]...)
		var partNames []string
		for _, p := range parts {
			partNames = append(partNames, HexCode(p, 3))
		}
		listed := strings.Join(partNames, " & ")
		rank, basis := c.rankCPUs(ids)
		distinct := distinctSorted(rank)
		if rank == nil || len(distinct) != len(parts) {
			for _, id := range ids {
				c.grouped.add("core type", "cpu", "/proc/cpuinfo lists parts "+listed+" for all CPUs without saying which CPU is which", id)
			}
			continue
		}
		slices.Sort(parts)
		for i, id := range ids {
			cpu := c.cpuByID(id)
			pos := sort.SearchFloat64s(distinct, rank[i])
			impl, _ := firstHex(cpu.Implementer)
			cpu.Part = HexCode(parts[pos], 3)
			var variant, rev uint64
			haveRev := cpu.Variant != nil && cpu.Revision != nil
			if haveRev {
				variant, rev = uint64(*cpu.Variant), uint64(*cpu.Revision)
			}
			c.nameARM(cpu, impl, parts[pos], variant, rev, haveRev)
			cpu.CoreGuessed = cpu.CoreName != ""
			c.grouped.add("core type", "cpu", "guessed: /proc/cpuinfo lists parts "+listed+" for all CPUs; matched to CPUs by "+basis, id)
		}
	}
}

// rankCPUs returns a ranking value per CPU (cpu_capacity, else
// cpuinfo_max_freq) when every CPU has one.
func (c *collector) rankCPUs(ids []int) ([]float64, string) {
	caps := make([]float64, 0, len(ids))
	maxes := make([]float64, 0, len(ids))
	for _, id := range ids {
		cpu := c.cpuByID(id)
		if cpu.Capacity != nil {
			caps = append(caps, float64(*cpu.Capacity))
		}
		if cpu.MaxMHz != nil {
			maxes = append(maxes, *cpu.MaxMHz)
		}
	}
	switch {
	case len(caps) == len(ids) && len(distinctSorted(caps)) > 1:
		return caps, "cpu_capacity ranking"
	case len(maxes) == len(ids):
		return maxes, "maximum clock ranking"
	}
	return nil, ""
}

func distinctSorted(v []float64) []float64 {
	return slices.Compact(slices.Sorted(slices.Values(v)))
}

// identityKey groups CPUs of the same core type; CPUs with no identity at
// all get "".
func identityKey(cpu *CPU) string {
	if cpu.Core != "" {
		return "core:" + cpu.Core
	}
	if cpu.Implementer != "" || cpu.Part != "" || cpu.ModelName != "" || cpu.ISA != "" || cpu.MVendorID != "" {
		return "raw:" + cpu.Implementer + "|" + cpu.Part + "|" + cpu.ModelName + "|" + cpu.ISA + "|" + cpu.MVendorID + "|" + cpu.MArchID
	}
	return ""
}

// buildClusters groups CPUs sharing core type and cpufreq policy. A CPU
// whose core is unknown (e.g. offline and absent from /proc/cpuinfo) joins
// the cluster of its policy's known CPUs; its own Core stays "".
func (c *collector) buildClusters() {
	type group struct {
		key  string
		cpus []int
	}
	var groups []*group
	byKey := map[string]*group{}
	policyKey := func(cpu *CPU) string {
		if cpu.Policy == nil {
			return "-"
		}
		if p := c.policy(*cpu.Policy); len(p.CPUs) <= 1 {
			// Per-CPU policies (intel_pstate, amd-pstate, CPPC) are no
			// clock domains: CPUs with the same limits form one cluster.
			return "solo:" + mhzKey(p.MinMHz) + "-" + mhzKey(p.MaxMHz)
		}
		return fmt.Sprint(*cpu.Policy)
	}
	var orphans []*CPU
	for i := range c.info.CPUs {
		cpu := &c.info.CPUs[i]
		id := identityKey(cpu)
		if id == "" && cpu.Policy != nil {
			orphans = append(orphans, cpu)
			continue
		}
		key := policyKey(cpu) + "#" + id
		g := byKey[key]
		if g == nil {
			g = &group{key: key}
			byKey[key] = g
			groups = append(groups, g)
		}
		g.cpus = append(g.cpus, cpu.ID)
	}
	for _, cpu := range orphans {
		var target *group
		prefix := policyKey(cpu) + "#"
		for _, g := range groups {
			if strings.HasPrefix(g.key, prefix) {
				target = g
				break
			}
		}
		if target == nil {
			key := prefix
			target = byKey[key]
			if target == nil {
				target = &group{key: key}
				byKey[key] = target
				groups = append(groups, target)
			}
		}
		target.cpus = append(target.cpus, cpu.ID)
	}
	for _, g := range groups {
		slices.Sort(g.cpus)
	}
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].cpus[0] < groups[j].cpus[0] })

	c.info.Clusters = make([]Cluster, 0, len(groups))
	for idx, g := range groups {
		cl := Cluster{ID: idx, CPUs: g.cpus}
		var lists [][]string
		for _, id := range g.cpus {
			cpu := c.cpuByID(id)
			cpu.Cluster = idx
			if cl.Core == "" && cpu.Core != "" {
				cl.Core, cl.CoreName, cl.Vendor = cpu.Core, cpu.CoreName, cpu.Vendor
			}
			if cl.Capacity == nil && cpu.Capacity != nil {
				cl.Capacity = cpu.Capacity
			}
			lists = append(lists, c.features[id])
		}
		rep := c.cpuByID(g.cpus[0])
		if cl.Vendor == "" {
			cl.Vendor = rep.Vendor
		}
		c.clusterPolicies(&cl)
		cl.Features = intersect(lists)
		c.info.Clusters = append(c.info.Clusters, cl)
	}
}

// clusterPolicies fills a cluster's policy fields from its members.
func (c *collector) clusterPolicies(cl *Cluster) {
	seen := map[int]bool{}
	governors := map[string]bool{}
	for _, id := range cl.CPUs {
		cpu := c.cpuByID(id)
		if cpu.Policy == nil || seen[*cpu.Policy] {
			continue
		}
		seen[*cpu.Policy] = true
		cl.Policies = append(cl.Policies, *cpu.Policy)
		p := c.policy(*cpu.Policy)
		governors[p.Governor] = true
		if cl.MinMHz == nil && cl.MaxMHz == nil {
			cl.MinMHz, cl.MaxMHz = p.MinMHz, p.MaxMHz
		}
	}
	slices.Sort(cl.Policies)
	if len(cl.Policies) == 1 {
		cl.Policy = intPtr(cl.Policies[0])
	}
	if len(governors) == 1 {
		for g := range governors {
			cl.Governor = g
		}
	}
}

func mhzKey(v *float64) string {
	if v == nil {
		return "?"
	}
	return fmt.Sprint(*v)
}

// summarize fills the feature summary, the heterogeneity flag and the notes
// about unknown core types and clocks.
func (c *collector) summarize() {
	lists := make([][]string, 0, len(c.info.CPUs))
	names := map[string]bool{}
	for _, cpu := range c.info.CPUs {
		lists = append(lists, c.features[cpu.ID])
		if cpu.CoreName != "" {
			names[cpu.CoreName] = true
		} else {
			why := c.unknownWhy[cpu.ID]
			if why == "" {
				why = "not reported"
			}
			c.grouped.add("core type", "cpu", why, cpu.ID)
		}
	}
	c.info.Heterogeneous = len(names) > 1
	c.info.Features = summarizeFeatures(c.info.Arch, lists)
	if c.info.Features.Common == nil && len(c.info.CPUs) > 0 {
		c.info.Notes.Add("CPU features", "/proc/cpuinfo lists no features")
	}
	if !c.sysfs && len(c.info.CPUs) > 0 {
		c.info.Notes.Add("cluster topology, cpufreq policy, min/max MHz, caches",
			"no /sys/devices/system/cpu: "+c.missingReason()+"; clusters are formed from core types alone")
	}
	c.grouped.flush(&c.info.Notes)
}
