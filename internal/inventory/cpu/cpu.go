// Package cpu identifies a machine's processors: one entry per logical CPU
// (core type, cluster, cpufreq policy, clocks, caches, features) and the
// clusters they form. It works from sysfs and /proc/cpuinfo, or from
// /proc/cpuinfo alone.
//
// Core types come from the MIDR fields on ARM (tables in midr_table.go,
// generated from the arm-socs-table data set, and midr_extra.go, kept by
// hand), from the "uarch" line on RISC-V, and from "model name" or "cpu
// model" elsewhere. The parsers for /proc/cpuinfo, CPU lists and cpufreq
// files are pure functions, exported for packages that read cpufreq while
// benchmarking.
package cpu

import (
	"boardbench/internal/host"
	"boardbench/internal/note"
)

// Info describes all logical CPUs of a machine.
type Info struct {
	// Arch is the kernel's architecture family: "arm64", "arm", "riscv64",
	// "riscv32", "x86_64", "x86", "loongarch64", "mips64", "mips", another
	// kernel machine name as written, or "" when unknown.
	Arch string `json:"arch"`
	// ArchSource says how Arch was found: "uname" or "cpuinfo"; "" when
	// unknown.
	ArchSource string `json:"arch_source"`
	// Hardware is the "Hardware" line of /proc/cpuinfo (older ARM kernels
	// name the SoC or board there), "" when absent.
	Hardware string `json:"hardware,omitempty"`
	// Heterogeneous is true when the CPUs are of more than one named core
	// type (big.LITTLE, DynamIQ, hybrid x86).
	Heterogeneous bool `json:"heterogeneous"`
	// CPUs has one entry per logical CPU, ordered by id.
	CPUs []CPU `json:"cpus"`
	// Clusters groups CPUs that share core type and cpufreq policy, ordered
	// by their first CPU. Clusters[i].CPUs[0] is a representative CPU of the
	// cluster, e.g. to pin a single-threaded benchmark to.
	Clusters []Cluster `json:"clusters"`
	// Policies lists the cpufreq policies, ordered by number; empty without
	// cpufreq.
	Policies []Policy `json:"policies"`
	// Caches lists each cache once, with the CPUs sharing it; empty when
	// the kernel does not describe caches.
	Caches []Cache `json:"caches"`
	// Features summarises the instruction set extensions all CPUs report.
	Features FeatureSummary `json:"features"`
	// Notes lists what could not be established and why.
	Notes note.List `json:"notes,omitempty"`
}

// CPU describes one logical CPU.
type CPU struct {
	// ID is the logical CPU number.
	ID int `json:"id"`
	// Online is nil when the online state is not exposed. A CPU listed in
	// /proc/cpuinfo is online: the kernel lists only online CPUs there.
	Online *bool `json:"online"`
	// Core is the core name with its revision when known, e.g.
	// "Cortex-A76 / r4p0"; "" when unknown.
	Core string `json:"core"`
	// CoreName is Core without revision, e.g. "Cortex-A76".
	CoreName string `json:"core_name"`
	// CoreGuessed is true when the core type is a guess: the kernel listed
	// several parts for all CPUs ("0xc07 & 0xc0f") and boardbench matched
	// them to CPUs by clock or capacity ranking.
	CoreGuessed bool `json:"core_guessed,omitempty"`
	// Vendor designed the core: "ARM", "Qualcomm", "SiFive", "Intel"...;
	// "" when unknown.
	Vendor string `json:"vendor"`
	// Implementer and Part are the MIDR fields on ARM as hex strings
	// ("0x41", "0xd0b"); empty elsewhere.
	Implementer string `json:"implementer,omitempty"`
	Part        string `json:"part,omitempty"`
	// Variant and Revision are the MIDR variant and revision on ARM (the
	// "r4" and "p0" of "r4p0"); absent elsewhere.
	Variant  *int `json:"variant,omitempty"`
	Revision *int `json:"revision,omitempty"`
	// Architecture is the "CPU architecture" line on ARM ("8", "7", "5TE").
	Architecture string `json:"architecture,omitempty"`
	// ModelName is the processor's name line as printed: "model name",
	// "Processor" or "Processor name" (on ARM often just "ARMv7 Processor
	// rev 4 (v7l)").
	ModelName string `json:"model_name,omitempty"`
	// CPUModel is MIPS' "cpu model" line.
	CPUModel string `json:"cpu_model,omitempty"`
	// HybridType is "P-core" or "E-core" on hybrid x86 CPUs.
	HybridType string `json:"hybrid_type,omitempty"`
	// Family, Model and Stepping are x86's "cpu family", "model" and
	// "stepping".
	Family   *int `json:"family,omitempty"`
	Model    *int `json:"model,omitempty"`
	Stepping *int `json:"stepping,omitempty"`
	// Hart, ISA, MMU, Uarch, MVendorID, MArchID and MImpID are the RISC-V
	// lines of /proc/cpuinfo, as printed.
	Hart      *int   `json:"hart,omitempty"`
	ISA       string `json:"isa,omitempty"`
	MMU       string `json:"mmu,omitempty"`
	Uarch     string `json:"uarch,omitempty"`
	MVendorID string `json:"mvendorid,omitempty"`
	MArchID   string `json:"marchid,omitempty"`
	MImpID    string `json:"mimpid,omitempty"`
	// BogoMIPS is the kernel's delay-loop calibration; nil when not
	// printed. It is not a performance figure.
	BogoMIPS *float64 `json:"bogomips"`
	// CPUInfoMHz is the clock printed in /proc/cpuinfo ("cpu MHz" on x86,
	// "CPU MHz" on LoongArch and MIPS): a snapshot, nil when not printed.
	CPUInfoMHz *float64 `json:"cpuinfo_mhz"`
	// Package, CoreID and TopologyCluster are the kernel's topology ids
	// (physical_package_id, core_id, cluster_id); nil when not exposed or
	// negative.
	Package         *int `json:"package"`
	CoreID          *int `json:"core_id"`
	TopologyCluster *int `json:"topology_cluster"`
	// TopologyClusterCPUs lists the CPUs of this CPU's topology cluster
	// (topology/cluster_cpus_list), this CPU included; empty when not exposed.
	TopologyClusterCPUs []int `json:"topology_cluster_cpus,omitempty"`
	// ThreadSiblings lists the CPUs sharing this CPU's core (SMT), this CPU
	// included; empty when not exposed.
	ThreadSiblings []int `json:"thread_siblings,omitempty"`
	// Cluster is the index of this CPU's entry in Info.Clusters.
	Cluster int `json:"cluster"`
	// Policy is the cpufreq policy number, nil without cpufreq.
	Policy *int `json:"policy"`
	// MinMHz and MaxMHz are the cpufreq limits (cpuinfo_min/max_freq), nil when unknown.
	MinMHz *float64 `json:"min_mhz"`
	MaxMHz *float64 `json:"max_mhz"`
	// Capacity is the scheduler's relative capacity (cpu_capacity, the
	// fastest core at 1024), nil when not exposed.
	Capacity *int `json:"capacity"`
}

// Cluster is a group of CPUs sharing core type and cpufreq policy (or, with
// per-CPU policies, core type and cpufreq limits).
type Cluster struct {
	// ID is the cluster's index in Info.Clusters.
	ID int `json:"id"`
	// CPUs are the member CPU ids, ascending; CPUs[0] is the representative.
	CPUs []int `json:"cpus"`
	// Core, CoreName and Vendor are those of the members ("" when unknown).
	Core     string `json:"core"`
	CoreName string `json:"core_name"`
	Vendor   string `json:"vendor"`
	// Policy is the cpufreq policy of the members; nil without cpufreq and
	// when the members have one policy each (see Policies).
	Policy *int `json:"policy"`
	// Policies lists the cpufreq policies of the members, ascending: one
	// entry for a shared policy, one per CPU where the driver gives every
	// CPU its own (intel_pstate, CPPC); such CPUs form one cluster when
	// core type and cpufreq limits match. Empty without cpufreq.
	Policies []int `json:"policies"`
	// MinMHz and MaxMHz are the members' cpuinfo_min/max_freq.
	MinMHz *float64 `json:"min_mhz"`
	MaxMHz *float64 `json:"max_mhz"`
	// Governor is the members' cpufreq governor, "" when unknown or when
	// their policies differ.
	Governor string `json:"governor"`
	// Capacity is the representative's cpu_capacity, nil when not exposed.
	Capacity *int `json:"capacity"`
	// Features lists the features all members report, sorted; empty when
	// the kernel lists none.
	Features []string `json:"features"`
}

// Policy is one cpufreq policy: a set of CPUs clocked together.
type Policy struct {
	// ID is the policy number (policyN); on kernels without policyN
	// directories, the number of the CPU owning the shared cpufreq directory.
	ID int `json:"id"`
	// CPUs are all CPUs of the policy, online or not (related_cpus).
	CPUs []int `json:"cpus"`
	// AffectedCPUs are the online CPUs of the policy (affected_cpus).
	AffectedCPUs []int `json:"affected_cpus"`
	// Driver is the cpufreq driver (scaling_driver), "" when unknown.
	Driver string `json:"driver"`
	// Governor is the active governor, "" when unknown.
	Governor string `json:"governor"`
	// AvailableGovernors lists the governors the kernel offers.
	AvailableGovernors []string `json:"available_governors"`
	// MinMHz and MaxMHz are the hardware limits cpufreq reports
	// (cpuinfo_min_freq, cpuinfo_max_freq); nil when unknown.
	MinMHz *float64 `json:"min_mhz"`
	MaxMHz *float64 `json:"max_mhz"`
	// ScalingMinMHz and ScalingMaxMHz are the limits the governor works
	// within (scaling_min_freq, scaling_max_freq).
	ScalingMinMHz *float64 `json:"scaling_min_mhz"`
	ScalingMaxMHz *float64 `json:"scaling_max_mhz"`
	// CurMHz is the clock the governor last requested (scaling_cur_freq).
	CurMHz *float64 `json:"cur_mhz"`
	// HWCurMHz is the clock the driver reads back (cpuinfo_cur_freq),
	// usually readable by root only; nil when not readable.
	HWCurMHz *float64 `json:"hw_cur_mhz"`
	// AvailableMHz lists the selectable clocks, ascending.
	AvailableMHz []float64 `json:"available_mhz"`
	// AvailableMHzSource names the file AvailableMHz was read from:
	// "scaling_available_frequencies" or "stats/time_in_state"; "" when none.
	AvailableMHzSource string `json:"available_mhz_source"`
}

// Cache is one cache instance, described once for all CPUs sharing it.
type Cache struct {
	// Level is 1, 2, 3...
	Level int `json:"level"`
	// Type is "Data", "Instruction" or "Unified".
	Type string `json:"type"`
	// SizeBytes is the cache size, nil when not exposed.
	SizeBytes *int64 `json:"size_bytes"`
	// LineBytes is the coherency line size, nil when not exposed.
	LineBytes *int `json:"line_bytes"`
	// Ways is the associativity, nil when not exposed.
	Ways *int `json:"ways"`
	// Sets is the number of sets, nil when not exposed.
	Sets *int `json:"sets"`
	// CPUs are the CPUs sharing this cache (shared_cpu_list).
	CPUs []int `json:"cpus"`
}

// Collect identifies the CPUs of the machine behind h. It never fails: what
// cannot be read is listed in Notes.
func Collect(h *host.Host) Info {
	c := newCollector(h)
	return c.collect()
}
