// Package inventory describes what a machine is, by composing the section
// packages below it (os, cpu, board and SoC, memory, devfreq, sensors, storage, buses,
// network, Raspberry Pi firmware, virtual machine). Every section is a pure function of what
// the host layer serves, so it is tested on fixture trees of real boards.
package inventory

import (
	"time"

	"boardbench/internal/buildinfo"
	"boardbench/internal/host"
	"boardbench/internal/inventory/buses"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/devfreq"
	"boardbench/internal/inventory/memory"
	"boardbench/internal/inventory/network"
	"boardbench/internal/inventory/oppsel"
	"boardbench/internal/inventory/osinfo"
	"boardbench/internal/inventory/rpi"
	"boardbench/internal/inventory/sensors"
	"boardbench/internal/inventory/soc"
	"boardbench/internal/inventory/storage"
	"boardbench/internal/inventory/virt"
	"boardbench/internal/kernelfile"
	"boardbench/internal/kernelinfo"
	"boardbench/internal/schema"
)

// Options control what Collect reports.
type Options struct {
	// Redact hides MAC addresses and serial numbers (the default in the CLI).
	Redact bool
}

// Info is the full description of a machine (the JSON of `boardbench info`).
type Info struct {
	SchemaVersion string         `json:"schema_version"`
	Tool          buildinfo.Info `json:"tool"`
	CollectedAt   time.Time      `json:"collected_at"`
	// Root is the directory the machine was read from ("/" when live).
	Root     string `json:"root"`
	Redacted bool   `json:"redacted"`

	OS osinfo.Info `json:"os"`
	// KernelSummary is `boardbench kernel`'s judgement in one line: tree,
	// series maintenance (as of the built-in table's date) and age.
	KernelSummary string      `json:"kernel_summary,omitempty"`
	CPU           cpu.Info    `json:"cpu"`
	Board         soc.Board   `json:"board"`
	SoC           soc.SoC     `json:"soc"`
	Memory        memory.Info `json:"memory"`
	// Devfreq lists every devfreq device (memory controller, GPU, NPU)
	// with its clocks and governor; null when the machine has none.
	Devfreq []devfreq.Device `json:"devfreq"`

	// OPPSelection is the PVTM and leakage figures a Rockchip vendor
	// kernel logged at boot per device, with the voltage selection it made
	// (schema 1.3); null elsewhere.
	OPPSelection *oppsel.Info `json:"opp_selection"`

	Sensors sensors.Info `json:"sensors"`
	Storage storage.Info `json:"storage"`
	Buses   buses.Info   `json:"buses"`
	Network network.Info `json:"network"`
	// RaspberryPi is the firmware's view on a Raspberry Pi; null elsewhere.
	RaspberryPi *rpi.Firmware `json:"raspberry_pi"`
	// VM says whether the machine is a virtual machine, under which
	// hypervisor and in which cloud, with the evidence.
	VM virt.Info `json:"vm"`
}

// Collect describes the machine behind h, section by section; none of
// them fails the whole description.
func Collect(h *host.Host, opts Options) *Info {
	in := &Info{
		SchemaVersion: schema.Version,
		Tool:          buildinfo.Get(),
		CollectedAt:   time.Now().UTC().Truncate(time.Second),
		Root:          h.Root(),
		Redacted:      opts.Redact,
	}
	// One section after the other, on the calling goroutine: started
	// concurrently, the twelve goroutines' stacks grew by copying, and
	// every copy looked up the frames on it in the binary's pcln table,
	// mapping windows of it (board build read from storage: 10.9 MiB peak
	// RSS one after the other, 11.1 MiB with a goroutine each even when
	// each grew its stack at once, 12.0 MiB before; `info` took about
	// 1 ms longer here, the sections' own 5 ms beside the commands of
	// osinfo: docs/architecture.md, issue 22).
	// The kernel config is read once, with the symbols both readers use.
	kc := kernelfile.LoadKernelConfig(h, h.Uname().Release, kernelConfigSymbol)
	in.OS = osinfo.CollectConfig(h, kc)
	in.KernelSummary = kernelinfo.CollectConfig(h, time.Now(), nil, kc).Summary()
	in.CPU = cpu.Collect(h)
	in.Board, in.SoC = soc.Collect(h, in.CPU, opts.Redact)
	in.Memory = memory.Collect(h)
	in.Devfreq = devfreq.Collect(h)
	in.OPPSelection = oppsel.Collect(h)
	in.Sensors = sensors.Collect(h)
	in.Storage = storage.Collect(h, opts.Redact)
	in.Buses = buses.Collect(h, opts.Redact)
	in.Network = network.Collect(h, opts.Redact)
	in.RaspberryPi = rpi.Collect(h)
	in.VM = virt.Collect(h)
	return in
}

// kernelConfigSymbol chooses the kernel config symbols that osinfo and
// kernelinfo read.
func kernelConfigSymbol(sym []byte) bool {
	return kernelfile.ConfigFactsSymbol(sym) || kernelinfo.ConfigSymbol(sym)
}
