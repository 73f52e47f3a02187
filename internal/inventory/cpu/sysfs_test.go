package cpu

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"boardbench/internal/testutil/fixture"
)

// rk3588CPUInfo is /proc/cpuinfo of an RK3588 (4× Cortex-A55 r2p0, 4×
// Cortex-A76 r4p0), without the CPUs in offline.
func rk3588CPUInfo(offline map[int]bool) string {
	var b strings.Builder
	for id := 0; id < 8; id++ {
		if offline[id] {
			continue
		}
		part, variant := "0xd05", "0x2"
		if id >= 4 {
			part, variant = "0xd0b", "0x4"
		}
		fmt.Fprintf(&b, "processor\t: %d\nBogoMIPS\t: 48.00\nFeatures\t: fp asimd evtstrm aes pmull sha1 sha2 crc32 atomics fphp asimdhp cpuid asimdrdm lrcpc dcpop asimddp\n"+
			"CPU implementer\t: 0x41\nCPU architecture: 8\nCPU variant\t: %s\nCPU part\t: %s\nCPU revision\t: 0\n\n", id, variant, part)
	}
	return b.String()
}

// rk3588Tree builds an RK3588-like sysfs: policies 0 (cpu0-3, 408-1800 MHz),
// 4 (cpu4-5, 408-2400 MHz) and 6 (cpu6-7, 408-2304 MHz, frequencies only in
// stats/time_in_state), topology clusters 0/1/2, caches L1/L2 per core and
// a shared 3 MiB L3.
func rk3588Tree(offline map[int]bool) map[string]string {
	files := map[string]string{
		"/proc/cpuinfo":                  rk3588CPUInfo(offline),
		"/proc/sys/kernel/arch":          "aarch64\n",
		"/sys/devices/system/cpu/online": "0-7\n",
	}
	if offline[7] {
		files["/sys/devices/system/cpu/online"] = "0-6\n"
	}
	clusterOf := []int{0, 0, 0, 0, 1, 1, 2, 2}
	for id := 0; id < 8; id++ {
		d := fmt.Sprintf("/sys/devices/system/cpu/cpu%d/", id)
		files[d+"topology/physical_package_id"] = "0\n"
		files[d+"topology/core_id"] = fmt.Sprintf("%d\n", id%4)
		files[d+"topology/cluster_id"] = fmt.Sprintf("%d\n", clusterOf[id])
		files[d+"topology/thread_siblings_list"] = fmt.Sprintf("%d\n", id)
		files[d+"topology/cluster_cpus_list"] = []string{"0-3", "0-3", "0-3", "0-3", "4-5", "4-5", "6-7", "6-7"}[id] + "\n"
		capacity, l2 := "530\n", "128K\n"
		if id >= 4 {
			capacity, l2 = "1024\n", "512K\n"
		}
		files[d+"cpu_capacity"] = capacity
		policy := []int{0, 0, 0, 0, 4, 4, 6, 6}[id]
		files[d+"cpufreq"] = fmt.Sprintf("%s../cpufreq/policy%d", fixture.LinkPrefix, policy)
		caches := []struct{ level, typ, size, shared, ways string }{
			{"1", "Data", "32K", fmt.Sprint(id), "4"},
			{"1", "Instruction", "32K", fmt.Sprint(id), "4"},
			{"2", "Unified", l2, fmt.Sprint(id), "8"},
			{"3", "Unified", "3072K", "0-7", "12"},
		}
		for i, c := range caches {
			ci := fmt.Sprintf("%scache/index%d/", d, i)
			files[ci+"level"] = c.level + "\n"
			files[ci+"type"] = c.typ + "\n"
			files[ci+"size"] = c.size + "\n"
			files[ci+"shared_cpu_list"] = c.shared + "\n"
			files[ci+"coherency_line_size"] = "64\n"
			files[ci+"ways_of_associativity"] = c.ways + "\n"
		}
	}
	policies := []struct {
		id       int
		related  string
		affected string
		max      string
	}{
		{0, "0 1 2 3", "0 1 2 3", "1800000"},
		{4, "4 5", "4 5", "2400000"},
		{6, "6 7", "6 7", "2304000"},
	}
	for _, p := range policies {
		d := fmt.Sprintf("/sys/devices/system/cpu/cpufreq/policy%d/", p.id)
		affected := p.affected
		if p.id == 6 && offline[7] {
			affected = "6"
		}
		files[d+"related_cpus"] = p.related + "\n"
		files[d+"affected_cpus"] = affected + "\n"
		files[d+"cpuinfo_min_freq"] = "408000\n"
		files[d+"cpuinfo_max_freq"] = p.max + "\n"
		files[d+"scaling_min_freq"] = "408000\n"
		files[d+"scaling_max_freq"] = p.max + "\n"
		files[d+"scaling_cur_freq"] = "1008000\n"
		files[d+"scaling_governor"] = "schedutil\n"
		files[d+"scaling_driver"] = "cpufreq-dt\n"
		files[d+"scaling_available_governors"] = "conservative ondemand userspace powersave performance schedutil \n"
		if p.id == 6 {
			files[d+"stats/time_in_state"] = "408000 100\n1008000 20\n2304000 5\n"
		} else {
			files[d+"scaling_available_frequencies"] = "408000 600000 816000 1008000 1200000 1416000 1608000 1800000 " + map[bool]string{true: "2016000 2208000 2400000 ", false: ""}[p.id == 4] + "\n"
		}
	}
	return files
}

func TestSysfsRK3588(t *testing.T) {
	in := collectRoot(t, fixture.Root(t, rk3588Tree(nil)))
	if in.Arch != "arm64" || in.ArchSource != "uname" {
		t.Errorf("arch = %q from %q", in.Arch, in.ArchSource)
	}
	type want struct {
		cpus     []int
		core     string
		policy   int
		min, max float64
		capacity int
	}
	wants := []want{
		{[]int{0, 1, 2, 3}, "Cortex-A55 / r2p0", 0, 408, 1800, 530},
		{[]int{4, 5}, "Cortex-A76 / r4p0", 4, 408, 2400, 1024},
		{[]int{6, 7}, "Cortex-A76 / r4p0", 6, 408, 2304, 1024},
	}
	if len(in.Clusters) != len(wants) {
		t.Fatalf("clusters = %+v", in.Clusters)
	}
	for i, w := range wants {
		cl := in.Clusters[i]
		if !reflect.DeepEqual(cl.CPUs, w.cpus) || cl.Core != w.core || cl.Policy == nil || *cl.Policy != w.policy ||
			*cl.MinMHz != w.min || *cl.MaxMHz != w.max || cl.Governor != "schedutil" || *cl.Capacity != w.capacity {
			t.Errorf("cluster %d = %+v, want %+v", i, cl, w)
		}
		if len(cl.Features) == 0 || cl.Features[0] != "aes" {
			t.Errorf("cluster %d features = %v", i, cl.Features)
		}
		for _, id := range w.cpus {
			cpu := in.CPUs[id]
			if cpu.Cluster != i || *cpu.Policy != w.policy || *cpu.MinMHz != w.min || *cpu.MaxMHz != w.max || !*cpu.Online {
				t.Errorf("cpu%d = %+v", id, cpu)
			}
		}
	}
	if tc := in.CPUs[6].TopologyCluster; tc == nil || *tc != 2 || *in.CPUs[6].Package != 0 || *in.CPUs[6].CoreID != 2 ||
		!reflect.DeepEqual(in.CPUs[6].TopologyClusterCPUs, []int{6, 7}) || !reflect.DeepEqual(in.CPUs[6].ThreadSiblings, []int{6}) {
		t.Errorf("cpu6 topology = %+v", in.CPUs[6])
	}

	if len(in.Policies) != 3 {
		t.Fatalf("policies = %+v", in.Policies)
	}
	p0, p6 := in.Policies[0], in.Policies[2]
	if p0.Driver != "cpufreq-dt" || p0.Governor != "schedutil" || len(p0.AvailableGovernors) != 6 ||
		p0.AvailableMHzSource != "scaling_available_frequencies" || len(p0.AvailableMHz) != 8 || p0.AvailableMHz[7] != 1800 ||
		*p0.CurMHz != 1008 || *p0.ScalingMaxMHz != 1800 || p0.HWCurMHz != nil {
		t.Errorf("policy0 = %+v", p0)
	}
	if p6.AvailableMHzSource != "stats/time_in_state" || !reflect.DeepEqual(p6.AvailableMHz, []float64{408, 1008, 2304}) {
		t.Errorf("policy6 = %+v", p6)
	}
	if !hasNote(in, "cpuinfo_cur_freq (policy 0,4,6)") {
		t.Errorf("notes = %+v", in.Notes)
	}

	// Caches: 8× L1d, 8× L1i, 8× L2, one L3.
	if len(in.Caches) != 25 {
		t.Fatalf("caches = %d: %+v", len(in.Caches), in.Caches)
	}
	l3 := in.Caches[24]
	if l3.Level != 3 || l3.Type != "Unified" || *l3.SizeBytes != 3<<20 || !reflect.DeepEqual(l3.CPUs, []int{0, 1, 2, 3, 4, 5, 6, 7}) || *l3.Ways != 12 || *l3.LineBytes != 64 {
		t.Errorf("L3 = %+v", l3)
	}
	if c := in.Caches[0]; c.Level != 1 || c.Type != "Data" || *c.SizeBytes != 32<<10 || c.CPUs[0] != 0 {
		t.Errorf("first cache = %+v", c)
	}
	if c := in.Caches[23]; c.Level != 2 || *c.SizeBytes != 512<<10 || c.CPUs[0] != 7 {
		t.Errorf("cpu7 L2 = %+v", c)
	}
}

// TestSysfsOfflineCPU: an offline CPU is missing from /proc/cpuinfo; it
// keeps an unknown core but joins its policy's cluster.
func TestSysfsOfflineCPU(t *testing.T) {
	in := collectRoot(t, fixture.Root(t, rk3588Tree(map[int]bool{7: true})))
	cpu7 := in.CPUs[7]
	if cpu7.Online == nil || *cpu7.Online || cpu7.Core != "" || cpu7.Cluster != 2 || *cpu7.Policy != 6 {
		t.Errorf("cpu7 = %+v", cpu7)
	}
	if !reflect.DeepEqual(in.Clusters[2].CPUs, []int{6, 7}) || in.Clusters[2].CoreName != "Cortex-A76" {
		t.Errorf("cluster 2 = %+v", in.Clusters[2])
	}
	if !hasNote(in, "core type (cpu 7)") {
		t.Errorf("notes = %+v", in.Notes)
	}
}

// TestSysfsLegacyCPUFreq: kernels before 4.3 have no policyN directories;
// cpuN/cpufreq is a directory in the policy's first CPU and a link elsewhere.
func TestSysfsLegacyCPUFreq(t *testing.T) {
	files := map[string]string{"/proc/cpuinfo": rk3588CPUInfo(nil)}
	for id := 0; id < 8; id++ {
		owner := id / 4 * 4
		d := fmt.Sprintf("/sys/devices/system/cpu/cpu%d/", id)
		if id == owner {
			files[d+"cpufreq/related_cpus"] = fmt.Sprintf("%d %d %d %d\n", owner, owner+1, owner+2, owner+3)
			files[d+"cpufreq/cpuinfo_min_freq"] = "408000\n"
			files[d+"cpufreq/cpuinfo_max_freq"] = fmt.Sprintf("%d\n", 1800000+owner*100000)
			files[d+"cpufreq/scaling_governor"] = "interactive\n"
		} else {
			files[d+"cpufreq"] = fmt.Sprintf("%s../cpu%d/cpufreq", fixture.LinkPrefix, owner)
		}
		files[d+"online"] = "1\n"
	}
	in := collectRoot(t, fixture.Root(t, files))
	if len(in.Policies) != 2 || in.Policies[1].ID != 4 || !reflect.DeepEqual(in.Policies[1].CPUs, []int{4, 5, 6, 7}) {
		t.Fatalf("policies = %+v", in.Policies)
	}
	if got := clusterSummary(in); got != "0-3 Cortex-A55 / r2p0; 4-7 Cortex-A76 / r4p0" {
		t.Errorf("clusters = %q", got)
	}
	if cl := in.Clusters[1]; *cl.Policy != 4 || *cl.MaxMHz != 2200 || cl.Governor != "interactive" {
		t.Errorf("cluster 1 = %+v", cl)
	}
	if in.Arch != "arm64" || in.ArchSource != "cpuinfo" || !*in.CPUs[5].Online {
		t.Errorf("arch %q/%q cpu5 %+v", in.Arch, in.ArchSource, in.CPUs[5])
	}
	if !hasNote(in, "caches") {
		t.Errorf("no note about missing caches: %+v", in.Notes)
	}
}

// TestHybridIntel: P-cores and E-cores from the PMU device lists, per-CPU
// cpufreq policies merged into one cluster per core type and limits.
func TestHybridIntel(t *testing.T) {
	files := map[string]string{
		"/sys/devices/cpu_core/cpus":     "0-3\n",
		"/sys/devices/cpu_atom/cpus":     "4-7\n",
		"/sys/devices/system/cpu/online": "0-7\n",
		"/.boardbench/commands/uname_-m": "x86_64\n",
	}
	var b strings.Builder
	for id := 0; id < 8; id++ {
		fmt.Fprintf(&b, "processor\t: %d\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 154\n"+
			"model name\t: 12th Gen Intel(R) Core(TM) i7-1260P\nstepping\t: 3\ncpu MHz\t\t: 2100.000\n"+
			"flags\t\t: fpu vme de pse tsc msr pae mce cx8 apic sep lm sse sse2 ssse3 sse4_1 sse4_2 aes avx avx2 sha_ni\n"+
			"bogomips\t: 4992.00\n\n", id)
		d := fmt.Sprintf("/sys/devices/system/cpu/cpufreq/policy%d/", id)
		max := "4700000"
		if id >= 4 {
			max = "3400000"
		}
		files[d+"related_cpus"] = fmt.Sprintf("%d\n", id)
		files[d+"affected_cpus"] = fmt.Sprintf("%d\n", id)
		files[d+"cpuinfo_min_freq"] = "400000\n"
		files[d+"cpuinfo_max_freq"] = max + "\n"
		files[d+"scaling_governor"] = "powersave\n"
		files[d+"scaling_driver"] = "intel_pstate\n"
		files[fmt.Sprintf("/sys/devices/system/cpu/cpu%d/topology/core_id", id)] = fmt.Sprintf("%d\n", id)
	}
	files["/proc/cpuinfo"] = b.String()
	in := collectRoot(t, fixture.Root(t, files))
	if in.Arch != "x86_64" || in.ArchSource != "uname" {
		t.Errorf("arch = %q from %q", in.Arch, in.ArchSource)
	}
	if got := clusterSummary(in); got != "0-3 Intel Core i7-1260P P-core; 4-7 Intel Core i7-1260P E-core" {
		t.Fatalf("clusters = %q", got)
	}
	cl := in.Clusters[0]
	if cl.Policy != nil || !reflect.DeepEqual(cl.Policies, []int{0, 1, 2, 3}) || *cl.MaxMHz != 4700 || cl.Governor != "powersave" || cl.Vendor != "Intel" {
		t.Errorf("P-core cluster = %+v", cl)
	}
	c4 := in.CPUs[4]
	if c4.HybridType != "E-core" || *c4.Family != 6 || *c4.Model != 154 || *c4.Stepping != 3 || *c4.CPUInfoMHz != 2100 || *c4.Policy != 4 || !in.Heterogeneous {
		t.Errorf("cpu4 = %+v", c4)
	}
	f := in.Features
	if f.Source != "flags" || !*f.AESNI || !*f.AVX || !*f.AVX2 || *f.AVX512F || !*f.SHANI || f.NEON != nil || f.CryptoExtensions != nil {
		t.Errorf("features = %+v", f)
	}
}

// TestAmbiguousParts: "CPU part : 0xc07 & 0xc0f" for all CPUs. With cpufreq
// the parts are matched to clusters by clock ranking (and marked guessed);
// without, the core stays "Cortex-A7 or Cortex-A15".
func TestAmbiguousParts(t *testing.T) {
	var b strings.Builder
	b.WriteString("Processor\t: ARMv7 Processor rev 3 (v7l)\n")
	for id := 0; id < 8; id++ {
		fmt.Fprintf(&b, "processor\t: %d\nBogoMIPS\t: 84.00\n\n", id)
	}
	b.WriteString("Features\t: swp half thumb fastmult vfp edsp neon vfpv3 tls vfpv4 idiva idivt\nCPU implementer\t: 0x41\n" +
		"CPU architecture: 7\nCPU variant\t: 0x0 & 0x2\nCPU part\t: 0xc07 & 0xc0f\nCPU revision\t: 3\n\nHardware\t: SAMSUNG EXYNOS5 (Flattened Device Tree)\n")
	cpuinfo := b.String()

	t.Run("cpuinfo only", func(t *testing.T) {
		in := collectCPUInfo(t, []byte(cpuinfo))
		if got := clusterSummary(in); got != "0-7 Cortex-A7 or Cortex-A15" {
			t.Errorf("clusters = %q", got)
		}
		if in.CPUs[0].Part != "0xc07" || in.CPUs[0].CoreGuessed || !hasNote(in, "core type (cpu 0-7)") || in.Hardware == "" {
			t.Errorf("cpu0 %+v notes %+v", in.CPUs[0], in.Notes)
		}
	})
	t.Run("ranked by cpufreq", func(t *testing.T) {
		files := map[string]string{"/proc/cpuinfo": cpuinfo}
		for _, p := range []struct {
			id   int
			cpus string
			max  string
		}{{0, "0 1 2 3", "1400000"}, {4, "4 5 6 7", "2000000"}} {
			d := fmt.Sprintf("/sys/devices/system/cpu/cpufreq/policy%d/", p.id)
			files[d+"related_cpus"] = p.cpus
			files[d+"cpuinfo_min_freq"] = "200000"
			files[d+"cpuinfo_max_freq"] = p.max
		}
		for id := 0; id < 8; id++ {
			files[fmt.Sprintf("/sys/devices/system/cpu/cpu%d/online", id)] = "1"
		}
		in := collectRoot(t, fixture.Root(t, files))
		if got := clusterSummary(in); got != "0-3 Cortex-A7 / r0p3; 4-7 Cortex-A15 / r0p3" {
			t.Errorf("clusters = %q", got)
		}
		if !in.CPUs[5].CoreGuessed || in.CPUs[5].Part != "0xc0f" || !hasNote(in, "core type (cpu 0-7)") {
			t.Errorf("cpu5 %+v notes %+v", in.CPUs[5], in.Notes)
		}
	})
}

func TestNoSysfsNotes(t *testing.T) {
	in := collectCPUInfo(t, []byte(rk3588CPUInfo(nil)))
	if !hasNote(in, "cluster topology, cpufreq policy, min/max MHz, caches") {
		t.Errorf("notes = %+v", in.Notes)
	}
	for _, c := range in.Clusters {
		if c.Policy != nil || c.MinMHz != nil || len(c.Policies) != 0 {
			t.Errorf("cluster = %+v", c)
		}
	}
}

func TestEmptyRoot(t *testing.T) {
	in := collectRoot(t, t.TempDir())
	if len(in.CPUs) != 0 || len(in.Clusters) != 0 || !hasNote(in, "/proc/cpuinfo") || !hasNote(in, "CPUs") {
		t.Errorf("info = %+v", in)
	}
}

func TestPolicyHelpers(t *testing.T) {
	root := fixture.Root(t, rk3588Tree(nil))
	h := fixture.Open(t, root)
	if d := PolicyDir(h, 4); d != "/sys/devices/system/cpu/cpufreq/policy4" {
		t.Errorf("PolicyDir = %q", d)
	}
	if d := PolicyDir(h, 9); d != "/sys/devices/system/cpu/cpu9/cpufreq" {
		t.Errorf("PolicyDir(9) = %q", d)
	}
	if v, err := ReadPolicyMHz(h, 6, "cpuinfo_max_freq"); err != nil || v != 2304 {
		t.Errorf("ReadPolicyMHz = %v, %v", v, err)
	}
	if _, err := ReadPolicyMHz(h, 6, "cpuinfo_cur_freq"); err == nil {
		t.Error("ReadPolicyMHz of a missing file succeeded")
	}
}
