// Package cpu identifies a machine's processors: one entry per logical CPU
// (core type, cluster, cpufreq policy, clocks, caches, features) and the
// clusters they form. It works from sysfs and /proc/cpuinfo, or from
// /proc/cpuinfo alone.
package cpu

import (
	"boardbench/internal/host"
	"boardbench/internal/note"
)

// Info describes all logical CPUs of a machine.
type Info struct {
	// Arch is the kernel's architecture family: "arm64", "arm", "riscv64",
	// "x86_64", "loongarch64", "mips", or "" when unknown.
	Arch string `json:"arch"`
	// CPUs has one entry per logical CPU, ordered by id.
	CPUs []CPU `json:"cpus"`
	// Clusters groups CPUs that share core type and cpufreq policy.
	Clusters []Cluster `json:"clusters"`
	// Notes lists what could not be established and why.
	Notes note.List `json:"notes,omitempty"`
}

// CPU describes one logical CPU.
type CPU struct {
	ID int `json:"id"`
	// Online is nil when the online state is not exposed.
	Online *bool `json:"online"`
	// Core is the core name with its revision when known, e.g.
	// "Cortex-A76 / r4p0"; "" when unknown.
	Core string `json:"core"`
	// CoreName is Core without revision, e.g. "Cortex-A76".
	CoreName string `json:"core_name"`
	// Implementer and Part are the MIDR fields on ARM as hex strings
	// ("0x41", "0xd0b"); empty elsewhere.
	Implementer string `json:"implementer,omitempty"`
	Part        string `json:"part,omitempty"`
	// Cluster is the index of this CPU's entry in Info.Clusters.
	Cluster int `json:"cluster"`
	// Policy is the cpufreq policy number, nil without cpufreq.
	Policy *int `json:"policy"`
	// MinMHz and MaxMHz are the cpufreq limits (cpuinfo_min/max_freq), nil when unknown.
	MinMHz *float64 `json:"min_mhz"`
	MaxMHz *float64 `json:"max_mhz"`
}

// Cluster is a group of CPUs sharing core type and cpufreq policy.
type Cluster struct {
	ID     int      `json:"id"`
	CPUs   []int    `json:"cpus"`
	Core   string   `json:"core"`
	Policy *int     `json:"policy"`
	MinMHz *float64 `json:"min_mhz"`
	MaxMHz *float64 `json:"max_mhz"`
}

// Collect identifies the CPUs of the machine behind h. It never fails: what
// cannot be read is listed in Notes.
func Collect(h *host.Host) Info {
	return Info{}
}
