package cpu

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
	"boardbench/internal/note"
)

// PolicyDir returns the sysfs directory of cpufreq policy n:
// /sys/devices/system/cpu/cpufreq/policyN when it exists, else the older
// /sys/devices/system/cpu/cpuN/cpufreq (the policy number is the number of
// its first CPU on every kernel).
func PolicyDir(h *host.Host, n int) string {
	p := fmt.Sprintf("%s/cpufreq/policy%d", sysCPU, n)
	if h.Exists(p) {
		return p
	}
	return cpuPath(n, "cpufreq")
}

// ReadPolicyMHz reads one kHz file of cpufreq policy n (e.g.
// "scaling_cur_freq", "cpuinfo_cur_freq", "scaling_max_freq") and returns
// it in MHz. cpuinfo_cur_freq usually needs root; the error then wraps
// fs.ErrPermission.
func ReadPolicyMHz(h *host.Host, n int, file string) (float64, error) {
	s, err := h.ReadString(PolicyDir(h, n) + "/" + file)
	if err != nil {
		return 0, err
	}
	khz, err := ParseKHz(s)
	if err != nil {
		return 0, err
	}
	return KHzToMHz(khz), nil
}

func (c *collector) readOnline() {
	if s, err := c.h.ReadString(sysCPU + "/online"); err == nil {
		if list, err := ParseCPUList(s); err == nil {
			on := map[int]bool{}
			for _, id := range list {
				on[id] = true
			}
			for i := range c.info.CPUs {
				c.info.CPUs[i].Online = boolPtr(on[c.info.CPUs[i].ID])
			}
			return
		}
	}
	for i := range c.info.CPUs {
		cpu := &c.info.CPUs[i]
		if s, err := c.h.ReadString(cpuPath(cpu.ID, "online")); err == nil && (s == "0" || s == "1") {
			cpu.Online = boolPtr(s == "1")
		} else if c.entries[cpu.ID] != nil {
			cpu.Online = boolPtr(true)
		}
	}
}

func (c *collector) readTopology() {
	for i := range c.info.CPUs {
		cpu := &c.info.CPUs[i]
		cpu.Package = readNonNegInt(c.h, cpuPath(cpu.ID, "topology/physical_package_id"))
		cpu.CoreID = readNonNegInt(c.h, cpuPath(cpu.ID, "topology/core_id"))
		cpu.TopologyCluster = readNonNegInt(c.h, cpuPath(cpu.ID, "topology/cluster_id"))
		cpu.TopologyClusterCPUs = ReadCPUList(c.h, cpuPath(cpu.ID, "topology/cluster_cpus_list"))
		cpu.ThreadSiblings = ReadCPUList(c.h, cpuPath(cpu.ID, "topology/thread_siblings_list"))
	}
}

func (c *collector) readCapacity() {
	for i := range c.info.CPUs {
		cpu := &c.info.CPUs[i]
		cpu.Capacity = readNonNegInt(c.h, cpuPath(cpu.ID, "cpu_capacity"))
	}
}

// readHybrid marks P-cores and E-cores of hybrid Intel CPUs from the PMU
// device lists /sys/devices/cpu_core/cpus and /sys/devices/cpu_atom/cpus.
func (c *collector) readHybrid() {
	types := []struct{ file, name string }{
		{"/sys/devices/cpu_core/cpus", "P-core"},
		{"/sys/devices/cpu_atom/cpus", "E-core"},
	}
	for _, t := range types {
		s, err := c.h.ReadString(t.file)
		if err != nil {
			continue
		}
		list, err := ParseCPUList(s)
		if err != nil {
			c.info.Notes.Add(t.file, fmtMalformed(err))
			continue
		}
		for _, id := range list {
			cpu := c.cpuByID(id)
			if cpu == nil {
				continue
			}
			cpu.HybridType = t.name
			if cpu.CoreName == "" {
				cpu.CoreName = t.name
			} else {
				cpu.CoreName += " " + t.name
			}
			cpu.Core = cpu.CoreName
		}
	}
}

func fmtMalformed(err error) string { return "malformed content: " + err.Error() }

// readCPUFreq finds the cpufreq policies and their CPUs.
func (c *collector) readCPUFreq() {
	if names, err := c.h.ReadDirNames(sysCPU + "/cpufreq"); err == nil {
		for _, n := range names {
			rest, ok := strings.CutPrefix(n, "policy")
			if !ok {
				continue
			}
			if id, ok := kernelfile.CPUNumber(rest); ok {
				c.policyDirs[id] = sysCPU + "/cpufreq/" + n
			}
		}
	}
	if len(c.policyDirs) == 0 {
		// Kernels before 4.3 have no policyN directories: cpuN/cpufreq is
		// the policy's directory in its first CPU, a link to it elsewhere.
		for _, cpu := range c.info.CPUs {
			if id, dir, ok := c.legacyPolicy(cpu.ID); ok {
				if _, dup := c.policyDirs[id]; !dup {
					c.policyDirs[id] = dir
				}
			}
		}
	}
	if len(c.policyDirs) == 0 {
		c.info.Notes.Add("cpufreq policy and min/max MHz", "no cpufreq in /sys/devices/system/cpu: "+c.missingReason())
		return
	}
	ids := slices.Sorted(maps.Keys(c.policyDirs))
	cpuPolicy := map[int]int{}
	for _, id := range ids {
		p := c.readPolicy(id, c.policyDirs[id])
		for _, cpu := range p.CPUs {
			if _, dup := cpuPolicy[cpu]; !dup {
				cpuPolicy[cpu] = id
			}
		}
		c.info.Policies = append(c.info.Policies, p)
	}
	for i := range c.info.CPUs {
		cpu := &c.info.CPUs[i]
		id, ok := cpuPolicy[cpu.ID]
		if !ok {
			// A policy without related_cpus: follow the CPU's own link.
			if pid, _, ok2 := c.legacyPolicy(cpu.ID); ok2 {
				if _, known := c.policyDirs[pid]; known {
					id, ok = pid, true
				}
			}
		}
		if !ok {
			c.grouped.add("cpufreq policy", "cpu", c.missingReason(), cpu.ID)
			continue
		}
		cpu.Policy = intPtr(id)
		p := c.policy(id)
		cpu.MinMHz, cpu.MaxMHz = p.MinMHz, p.MaxMHz
		if p.MinMHz == nil || p.MaxMHz == nil {
			c.grouped.add("cpuinfo_min_freq/cpuinfo_max_freq", "cpu", note.Unreadable, cpu.ID)
		}
	}
}

// legacyPolicy resolves cpuN/cpufreq to the policy it belongs to.
func (c *collector) legacyPolicy(cpu int) (id int, dir string, ok bool) {
	p := cpuPath(cpu, "cpufreq")
	rp, err := c.h.Resolve(p)
	if err != nil {
		return 0, "", false
	}
	parent := basename(strings.TrimSuffix(rp, "/cpufreq"))
	if rest, ok := strings.CutPrefix(basename(rp), "policy"); ok {
		if id, ok := kernelfile.CPUNumber(rest); ok {
			return id, rp, true
		}
	}
	if owner, ok := cpuDirID(parent); ok && strings.HasSuffix(rp, "/cpufreq") {
		// The owner of a shared directory is its first related CPU.
		if s, err := c.h.ReadString(rp + "/related_cpus"); err == nil {
			if l, err := ParseCPUList(s); err == nil && len(l) > 0 {
				return l[0], rp, true
			}
		}
		return owner, rp, true
	}
	return 0, "", false
}

func (c *collector) policy(id int) *Policy {
	for i := range c.info.Policies {
		if c.info.Policies[i].ID == id {
			return &c.info.Policies[i]
		}
	}
	return &Policy{}
}

// readPolicy reads one policy directory.
func (c *collector) readPolicy(id int, dir string) Policy {
	p := Policy{ID: id}
	if s, err := c.h.ReadString(dir + "/related_cpus"); err == nil {
		p.CPUs, _ = ParseCPUList(s)
	}
	if s, err := c.h.ReadString(dir + "/affected_cpus"); err == nil {
		p.AffectedCPUs, _ = ParseCPUList(s)
	}
	if len(p.CPUs) == 0 {
		p.CPUs = p.AffectedCPUs
	}
	p.Driver, _ = c.h.ReadString(dir + "/scaling_driver")
	p.Governor, _ = c.h.ReadString(dir + "/scaling_governor")
	p.Driver, p.Governor = printable(p.Driver), printable(p.Governor)
	if s, err := c.h.ReadString(dir + "/scaling_available_governors"); err == nil && printableASCII(s) {
		p.AvailableGovernors = kernelfile.ParseAvailable(s)
	}
	p.MinMHz, _ = c.readMHz(dir + "/cpuinfo_min_freq")
	p.MaxMHz, _ = c.readMHz(dir + "/cpuinfo_max_freq")
	p.ScalingMinMHz, _ = c.readMHz(dir + "/scaling_min_freq")
	p.ScalingMaxMHz, _ = c.readMHz(dir + "/scaling_max_freq")
	p.CurMHz, _ = c.readMHz(dir + "/scaling_cur_freq")
	var err error
	p.HWCurMHz, err = c.readMHz(dir + "/cpuinfo_cur_freq")
	if err != nil {
		reason := c.readReason(err)
		if errors.Is(err, fs.ErrNotExist) && !c.h.Live() {
			reason = "not recorded; reading it needs root"
		} else if !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission) && !errors.Is(err, host.ErrNotAllowed) {
			reason = "malformed content"
		}
		c.grouped.add("cpuinfo_cur_freq", "policy", reason, id)
	}
	if s, err := c.h.ReadString(dir + "/scaling_available_frequencies"); err == nil {
		if khz, err := ParseFrequenciesKHz(s); err == nil && len(khz) > 0 {
			p.AvailableMHz, p.AvailableMHzSource = khzListToMHz(khz), "scaling_available_frequencies"
		}
	}
	if p.AvailableMHz == nil {
		if s, err := c.h.ReadString(dir + "/stats/time_in_state"); err == nil {
			if st, bad := kernelfile.ParseTimeInState([]byte(s)); bad == 0 && len(st) > 0 {
				p.AvailableMHz, p.AvailableMHzSource = khzListToMHz(FrequenciesFromTimeInState(st)), "stats/time_in_state"
			}
		}
	}
	return p
}

func khzListToMHz(khz []int64) []float64 {
	out := make([]float64, len(khz))
	for i, v := range khz {
		out[i] = KHzToMHz(v)
	}
	return out
}

// positive drops zero values (sysfs prints 0 for "not described").
func positive(p *int) *int {
	if p == nil || *p <= 0 {
		return nil
	}
	return p
}
