// Package virt tells whether the machine is a virtual machine, under which
// hypervisor and, where the firmware says so, in which cloud. It is a pure
// function of what the host serves: the x86 `hypervisor` flag of
// /proc/cpuinfo, the firmware's DMI strings, /sys/hypervisor/type and the
// device tree (a /hypervisor node, QEMU's "linux,dummy-virt" machine).
//
// Every conclusion carries the file and value it rests on. When nothing can
// tell (an ARM or RISC-V machine without DMI and without a device tree),
// the answer is unknown, never a guess.
package virt

import (
	"fmt"
	"slices"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
)

// Info is the `vm` section of the machine description.
type Info struct {
	// IsVM is true on a virtual machine, false on bare metal, nil when
	// nothing the machine exposes can tell.
	IsVM *bool `json:"is_vm"`
	// Hypervisor names the hypervisor ("KVM", "QEMU", "Microsoft
	// Hyper-V", "VMware", "VirtualBox", "Xen", "Parallels", "bhyve");
	// "" when not a VM or when the evidence does not name it.
	Hypervisor string `json:"hypervisor"`
	// Cloud names the cloud provider ("Amazon EC2", "Google Compute
	// Engine", "Microsoft Azure", "Hetzner Cloud", "DigitalOcean",
	// "Oracle Cloud", "Alibaba Cloud"); "" when none is named. A bare-metal
	// cloud instance has a Cloud and IsVM false.
	Cloud string `json:"cloud"`
	// Evidence lists what the answer rests on, each naming a file and
	// what it held (or that it was absent).
	Evidence []string `json:"evidence"`
}

// dmiDir is where the kernel exposes the firmware's DMI strings.
const dmiDir = "/sys/class/dmi/id/"

// dmiFields are the DMI files compared with the rules. Serial numbers and
// UUIDs are never read; chassis_asset_tag is read only on a machine whose
// other DMI strings already name a hypervisor (see assetTagClouds).
var dmiFields = []string{"sys_vendor", "product_name", "bios_vendor", "bios_version", "board_vendor", "chassis_vendor"}

// Collect describes the virtualisation of the machine behind h. It never
// fails: unreadable or malformed files are simply no evidence.
func Collect(h *host.Host) Info {
	var in facts
	if data, err := h.ReadFile("/proc/cpuinfo"); err == nil {
		in.flagsSeen, in.hypervisorFlag = cpuinfoHypervisorFlag(data)
		in.cpuinfoRead = true
	}
	in.dmi = map[string]string{}
	for _, f := range dmiFields {
		if v, err := h.ReadString(dmiDir + f); err == nil && v != "" {
			in.dmi[f] = printable(v)
		}
	}
	if _, hv, _, _ := matchDMI(in.dmi); hv != "" {
		// Only on a machine already known to be virtual: on a physical
		// machine the asset tag may be an owner's inventory number.
		if v, err := h.ReadString(dmiDir + "chassis_asset_tag"); err == nil && v != "" {
			in.dmi["chassis_asset_tag"] = printable(v)
		}
	}
	if v, err := h.ReadString("/sys/hypervisor/type"); err == nil {
		in.sysHypervisor = printable(v)
	}
	for _, base := range []string{"/proc/device-tree", "/sys/firmware/devicetree/base"} {
		compat, errC := h.ReadFile(base + "/compatible")
		model, errM := h.ReadFile(base + "/model")
		if errC != nil && errM != nil {
			continue
		}
		in.dtBase = base
		in.dtCompatible = splitNUL(compat)
		in.dtModel = strings.Join(splitNUL(model), " ")
		if hc, err := h.ReadFile(base + "/hypervisor/compatible"); err == nil {
			in.dtHypervisor = splitNUL(hc)
			in.dtHypervisorNode = true
		} else if h.Exists(base + "/hypervisor") {
			in.dtHypervisorNode = true
		}
		break
	}
	return decide(in)
}

// facts are the raw observations Collect gathers, for decide to weigh.
type facts struct {
	cpuinfoRead, flagsSeen, hypervisorFlag bool
	// dmi maps a DMI file name to its (non-empty) value.
	dmi           map[string]string
	sysHypervisor string
	// dtBase is the device-tree directory read; "" without a device tree.
	dtBase           string
	dtCompatible     []string
	dtModel          string
	dtHypervisorNode bool
	dtHypervisor     []string
}

// decide weighs the observations: any positive evidence makes a VM; a
// bare-metal cloud instance, an x86 processor without the hypervisor flag
// or a device tree of a real board make bare metal; otherwise unknown.
func decide(f facts) Info {
	out := Info{Evidence: []string{}}
	positive, negative := false, false
	var hvDT, hvSys string

	// The firmware's strings.
	cloud, hvDMI, vmDMI, metal := matchDMI(f.dmi)
	out.Evidence = append(out.Evidence, dmiEvidence(f.dmi)...)
	if len(f.dmi) == 0 {
		out.Evidence = append(out.Evidence, dmiDir+": absent")
	}
	out.Cloud = cloud
	switch {
	case vmDMI:
		positive = true
	case metal:
		negative = true
		out.Evidence = append(out.Evidence, fmt.Sprintf("%sproduct_name %q: a bare-metal instance", dmiDir, f.dmi["product_name"]))
	}

	// The x86 CPUID bit the kernel shows as a flag.
	switch {
	case f.hypervisorFlag:
		positive = true
		out.Evidence = append(out.Evidence, `/proc/cpuinfo: flags include "hypervisor"`)
	case f.flagsSeen:
		negative = true
		out.Evidence = append(out.Evidence, `/proc/cpuinfo: flags without "hypervisor"`)
	case f.cpuinfoRead:
		out.Evidence = append(out.Evidence, "/proc/cpuinfo: no flags line (the hypervisor flag exists on x86 only)")
	default:
		out.Evidence = append(out.Evidence, "/proc/cpuinfo: unreadable")
	}

	// Xen's sysfs node.
	if f.sysHypervisor != "" {
		positive = true
		hvSys = hypervisorName(f.sysHypervisor)
		out.Evidence = append(out.Evidence, fmt.Sprintf("/sys/hypervisor/type: %q", f.sysHypervisor))
	}

	// The device tree.
	switch {
	case f.dtBase == "":
		out.Evidence = append(out.Evidence, "device tree: absent")
	case f.dtHypervisorNode:
		positive = true
		hvDT = "unnamed"
		for _, c := range f.dtHypervisor {
			if strings.HasPrefix(c, "xen,") {
				hvDT = "Xen"
			}
		}
		out.Evidence = append(out.Evidence, fmt.Sprintf("%s/hypervisor/compatible: %q", f.dtBase, strings.Join(f.dtHypervisor, ", ")))
	case dtIsVirt(f.dtCompatible, f.dtModel):
		positive = true
		hvDT = "QEMU"
		out.Evidence = append(out.Evidence, fmt.Sprintf("%s: compatible %q, model %q (QEMU's virtual machine)", f.dtBase, strings.Join(f.dtCompatible, ", "), f.dtModel))
	default:
		negative = true
		out.Evidence = append(out.Evidence, fmt.Sprintf("%s: compatible %q, no hypervisor node", f.dtBase, strings.Join(f.dtCompatible, ", ")))
	}

	switch {
	case positive:
		out.IsVM = boolPtr(true)
		for _, hv := range []string{hvDMI, hvSys, hvDT} {
			if hv != "" && hv != "unnamed" {
				out.Hypervisor = hv
				break
			}
		}
	case negative:
		out.IsVM = boolPtr(false)
	}
	return out
}

func boolPtr(b bool) *bool { return &b }

// cpuinfoHypervisorFlag reports whether /proc/cpuinfo has an x86 "flags"
// line and whether the first one lists "hypervisor".
func cpuinfoHypervisorFlag(data []byte) (seen, hypervisor bool) {
	flags, seen := kernelfile.ParseCPUInfo(data).First["flags"]
	return seen, seen && slices.Contains(strings.Fields(flags), "hypervisor")
}

// hypervisorName names the hypervisor /sys/hypervisor/type reports.
func hypervisorName(t string) string {
	switch strings.ToLower(t) {
	case "xen":
		return "Xen"
	case "s390":
		return "z/VM or KVM (s390)"
	}
	return t
}

// dtIsVirt reports whether the device tree is one a virtual machine monitor
// generated: QEMU's "virt" machine (also used by other monitors) has the
// compatible string "linux,dummy-virt".
func dtIsVirt(compatible []string, model string) bool {
	for _, c := range compatible {
		if c == "linux,dummy-virt" {
			return true
		}
	}
	return model == "linux,dummy-virt"
}

// splitNUL splits a device-tree string list, dropping empty strings.
func splitNUL(b []byte) []string {
	var out []string
	for _, s := range kernelfile.ParseStringList(b) {
		if s = printable(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// printable trims s and drops control characters, so that hostile file
// content cannot garble a terminal.
func printable(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, s))
}
