package infotext

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/textfmt"
)

// cpuFeatureListMax is the longest common feature list printed in full; x86
// lists well over a hundred flags, which belong in the JSON.
const cpuFeatureListMax = 40

// renderCPU writes the CPU section: architecture and core types, the
// per-CPU topology table (cluster, cpufreq policy, clock limits, core and
// revision), one line per cluster, cpufreq policies, caches, the
// instruction set extensions that matter for benchmarks, and what is
// unknown.
func renderCPU(w *textfmt.Writer, in *inventory.Info) {
	c := in.CPU
	w.Section("CPU")
	online := 0
	for _, p := range c.CPUs {
		if p.Online != nil && *p.Online {
			online++
		}
	}
	count := strconv.Itoa(len(c.CPUs))
	if len(c.CPUs) > 0 {
		count += fmt.Sprintf(" (%d online)", online)
	}
	pairs := [][2]string{
		{"architecture", c.Arch},
		{"CPUs", count},
		{"core types", cpuCoreTypes(c)},
	}
	if c.Hardware != "" {
		pairs = append(pairs, [2]string{"hardware (cpuinfo)", c.Hardware})
	}
	w.KV(pairs...)

	if len(c.CPUs) > 0 {
		w.Line("Topology:")
		t := textfmt.NewTable("CPU", "CLUSTER", "POLICY", "MIN MHz", "MAX MHz", "CORE / REVISION")
		t.Wrap[5] = true
		t.RightAlign[0], t.RightAlign[1], t.RightAlign[2], t.RightAlign[3], t.RightAlign[4] = true, true, true, true, true
		for _, p := range c.CPUs {
			t.Row(strconv.Itoa(p.ID), strconv.Itoa(p.Cluster), cpuInt(p.Policy), cpuMHz(p.MinMHz), cpuMHz(p.MaxMHz), cpuCoreCell(p))
		}
		w.Table(t)
	}

	if len(c.Clusters) > 0 {
		w.Line("Clusters:")
		withCapacity := false
		for _, cl := range c.Clusters {
			withCapacity = withCapacity || cl.Capacity != nil
		}
		headers := []string{"CLUSTER", "CPUS", "CORE", "POLICY", "MIN–MAX MHz", "GOVERNOR"}
		if withCapacity {
			headers = append(headers, "CAPACITY")
		}
		t := textfmt.NewTable(headers...)
		t.RightAlign[0], t.RightAlign[3], t.RightAlign[4], t.RightAlign[6] = true, true, true, true
		for _, cl := range c.Clusters {
			row := []string{strconv.Itoa(cl.ID), cpu.FormatCPUList(cl.CPUs), cpuDash(cl.Core), cpuPolicies(cl),
				cpuMHzRange(cl.MinMHz, cl.MaxMHz), cpuDash(cl.Governor)}
			if withCapacity {
				row = append(row, cpuInt(cl.Capacity))
			}
			t.Row(row...)
		}
		w.Table(t)
	}

	if len(c.Policies) > 0 {
		w.Line("cpufreq policies:")
		t := textfmt.NewTable("POLICY", "CPUS", "DRIVER", "GOVERNOR", "CUR MHz", "LIMITS MHz", "AVAILABLE MHz")
		t.Wrap[6] = true
		t.RightAlign[0], t.RightAlign[4], t.RightAlign[5] = true, true, true
		for _, g := range cpuGroupPolicies(c.Policies) {
			p := g.policies[0]
			avail := cpuMHzList(p.AvailableMHz)
			if p.AvailableMHzSource == "stats/time_in_state" {
				avail += " (from time_in_state)"
			}
			t.Row(cpuPolicyIDs(g.policies), cpu.FormatCPUList(g.cpus), cpuDash(p.Driver), cpuDash(p.Governor),
				g.cur, cpuMHzRange(p.ScalingMinMHz, p.ScalingMaxMHz), avail)
		}
		w.Table(t)
	}

	if len(c.Caches) > 0 {
		w.Line("Caches:")
		t := textfmt.NewTable("CACHE", "SIZE", "COUNT", "SHARED BY", "CPUS", "WAYS", "LINE")
		t.RightAlign[1], t.RightAlign[2], t.RightAlign[5], t.RightAlign[6] = true, true, true, true
		for _, g := range cpuGroupCaches(c.Caches) {
			shared := "1 CPU"
			if g.shared != 1 {
				shared = fmt.Sprintf("%d CPUs", g.shared)
			}
			size := "-"
			if g.cache.SizeBytes != nil {
				size = textfmt.Bytes(*g.cache.SizeBytes)
			}
			line := "-"
			if g.cache.LineBytes != nil {
				line = fmt.Sprintf("%d B", *g.cache.LineBytes)
			}
			t.Row(cpuCacheName(g.cache), size, fmt.Sprintf("×%d", g.count), shared, cpu.FormatCPUList(g.cpus), cpuInt(g.cache.Ways), line)
		}
		w.Table(t)
	}

	cpuFeatures(w, c)

	for _, n := range c.Notes {
		w.Line("unknown: %s (%s)", n.Item, n.Reason)
	}
}

// cpuFeatures writes the instruction set summary for the architecture.
func cpuFeatures(w *textfmt.Writer, c cpu.Info) {
	f := c.Features
	if f.Common == nil {
		w.KV([2]string{"features", "unknown (/proc/cpuinfo lists none)"})
		return
	}
	var pairs [][2]string
	switch c.Arch {
	case "arm", "arm64":
		pairs = append(pairs,
			[2]string{"ARMv8 Crypto Extensions", cpuCrypto(f)},
			[2]string{"NEON/ASIMD", cpuYesNo(f.NEON)},
			[2]string{"SVE / SVE2", cpuYesNo(f.SVE) + " / " + cpuYesNo(f.SVE2)},
			[2]string{"CRC32", cpuYesNo(f.CRC32)},
		)
	case "x86", "x86_64":
		pairs = append(pairs,
			[2]string{"AES-NI", cpuYesNo(f.AESNI)},
			[2]string{"AVX / AVX2", cpuYesNo(f.AVX) + " / " + cpuYesNo(f.AVX2)},
			[2]string{"AVX-512 (avx512f)", cpuYesNo(f.AVX512F)},
			[2]string{"SHA-NI", cpuYesNo(f.SHANI)},
		)
	case "riscv64", "riscv32":
		pairs = append(pairs, [2]string{"vector extension (V)", cpuYesNo(f.RVV)})
	case "loongarch64":
		pairs = append(pairs, [2]string{"LSX / LASX", cpuYesNo(f.LSX) + " / " + cpuYesNo(f.LASX)})
	}
	list := strings.Join(f.Common, " ")
	if len(f.Common) > cpuFeatureListMax {
		list = fmt.Sprintf("%d flags (listed in the JSON output)", len(f.Common))
	} else if list == "" {
		list = "none common to all CPUs"
	}
	pairs = append(pairs, [2]string{"features (all CPUs)", list})
	w.KV(pairs...)
}

// cpuCrypto summarises the ARMv8 Cryptography Extensions.
func cpuCrypto(f cpu.FeatureSummary) string {
	flags := map[string]*bool{"aes": f.AES, "pmull": f.PMULL, "sha1": f.SHA1, "sha2": f.SHA2}
	var have, missing []string
	for _, name := range cpu.ArmCryptoFeatures {
		if v := flags[name]; v != nil && *v {
			have = append(have, name)
		} else {
			missing = append(missing, name)
		}
	}
	switch {
	case len(missing) == 0:
		return "yes (" + strings.Join(have, " ") + ")"
	case len(have) == 0:
		return "no"
	}
	return "partial (" + strings.Join(have, " ") + "; missing " + strings.Join(missing, " ") + ")"
}

func cpuYesNo(v *bool) string {
	switch {
	case v == nil:
		return "unknown"
	case *v:
		return "yes"
	}
	return "no"
}

// cpuCoreTypes counts CPUs per core name: "4× Cortex-A55, 4× Cortex-A76".
func cpuCoreTypes(c cpu.Info) string {
	counts := map[string]int{}
	var order []string
	for _, p := range c.CPUs {
		name := p.CoreName
		if name == "" {
			name = "unknown"
		}
		if counts[name] == 0 {
			order = append(order, name)
		}
		counts[name]++
	}
	var parts []string
	for _, name := range order {
		parts = append(parts, fmt.Sprintf("%d× %s", counts[name], name))
	}
	return strings.Join(parts, ", ")
}

// cpuCoreCell is the core column of the topology table.
func cpuCoreCell(p cpu.CPU) string {
	s := p.Core
	if s == "" {
		s = "unknown"
		if p.Implementer != "" {
			s += fmt.Sprintf(" (MIDR %s/%s)", p.Implementer, p.Part)
		}
	}
	if p.CoreGuessed {
		s += " (guessed)"
	}
	if p.Online != nil && !*p.Online {
		s += " (offline)"
	}
	return s
}

func cpuDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func cpuInt(v *int) string {
	if v == nil {
		return "-"
	}
	return strconv.Itoa(*v)
}

func cpuMHz(v *float64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatFloat(*v, 'f', 0, 64)
}

// cpuMHzRange formats "408–1800" ("-" when both are unknown).
func cpuMHzRange(lo, hi *float64) string {
	if lo == nil && hi == nil {
		return "-"
	}
	return cpuMHz(lo) + "–" + cpuMHz(hi)
}

func cpuMHzList(v []float64) string {
	if len(v) == 0 {
		return "-"
	}
	parts := make([]string, len(v))
	for i, f := range v {
		parts[i] = strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strings.Join(parts, " ")
}

// cpuPolicies is the policy cell of a cluster: "4", or "0-3" for per-CPU
// policies.
func cpuPolicies(cl cpu.Cluster) string {
	if cl.Policy != nil {
		return strconv.Itoa(*cl.Policy)
	}
	if len(cl.Policies) == 0 {
		return "-"
	}
	return cpu.FormatCPUList(cl.Policies)
}

// cpuPolicyGroup is a run of policies with the same settings (per-CPU
// policies of x86 and CPPC machines fold into one row).
type cpuPolicyGroup struct {
	policies []cpu.Policy
	cpus     []int
	cur      string
}

func cpuGroupPolicies(ps []cpu.Policy) []cpuPolicyGroup {
	key := func(p cpu.Policy) string {
		return strings.Join([]string{p.Driver, p.Governor, cpuMHzRange(p.MinMHz, p.MaxMHz),
			cpuMHzRange(p.ScalingMinMHz, p.ScalingMaxMHz), cpuMHzList(p.AvailableMHz), p.AvailableMHzSource}, "|")
	}
	var groups []cpuPolicyGroup
	for _, p := range ps {
		if n := len(groups); n > 0 && key(groups[n-1].policies[0]) == key(p) {
			groups[n-1].policies = append(groups[n-1].policies, p)
			groups[n-1].cpus = append(groups[n-1].cpus, p.CPUs...)
			continue
		}
		groups = append(groups, cpuPolicyGroup{policies: []cpu.Policy{p}, cpus: append([]int(nil), p.CPUs...)})
	}
	for i := range groups {
		var lo, hi *float64
		for _, p := range groups[i].policies {
			if p.CurMHz == nil {
				continue
			}
			if lo == nil || *p.CurMHz < *lo {
				lo = p.CurMHz
			}
			if hi == nil || *p.CurMHz > *hi {
				hi = p.CurMHz
			}
		}
		switch {
		case lo == nil:
			groups[i].cur = "-"
		case *lo == *hi:
			groups[i].cur = cpuMHz(lo)
		default:
			groups[i].cur = cpuMHzRange(lo, hi)
		}
	}
	return groups
}

func cpuPolicyIDs(ps []cpu.Policy) string {
	ids := make([]int, len(ps))
	for i, p := range ps {
		ids[i] = p.ID
	}
	return cpu.FormatCPUList(ids)
}

// cpuCacheGroup is a set of identical caches (same level, type, size,
// geometry and sharing), e.g. the eight L1d caches of an octa-core.
type cpuCacheGroup struct {
	cache  cpu.Cache
	count  int
	shared int
	cpus   []int
}

func cpuGroupCaches(cs []cpu.Cache) []cpuCacheGroup {
	var groups []cpuCacheGroup
	index := map[string]int{}
	for _, c := range cs {
		k := fmt.Sprintf("%d|%s|%s|%s|%s|%d", c.Level, c.Type, cpuInt64(c.SizeBytes), cpuInt(c.Ways), cpuInt(c.LineBytes), len(c.CPUs))
		i, ok := index[k]
		if !ok {
			i = len(groups)
			index[k] = i
			groups = append(groups, cpuCacheGroup{cache: c, shared: len(c.CPUs)})
		}
		groups[i].count++
		groups[i].cpus = append(groups[i].cpus, c.CPUs...)
	}
	sort.SliceStable(groups, func(i, j int) bool { return groups[i].cache.Level < groups[j].cache.Level })
	return groups
}

func cpuInt64(v *int64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatInt(*v, 10)
}

// cpuCacheName is "L1d", "L1i" or "L2".
func cpuCacheName(c cpu.Cache) string {
	name := "L" + strconv.Itoa(c.Level)
	switch c.Type {
	case "Data":
		name += "d"
	case "Instruction":
		name += "i"
	case "Unified":
	default:
		name += " " + c.Type
	}
	return name
}
