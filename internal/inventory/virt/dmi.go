package virt

import (
	"fmt"
	"slices"
	"strings"
)

// match kinds of a condition on one DMI field, compared without case.
const (
	equal    = "equal"
	prefix   = "prefix"
	contains = "contains"
	suffix   = "suffix"
)

// cond is one condition on a DMI field.
type cond struct {
	field, kind, value string
}

func (c cond) holds(dmi map[string]string) bool {
	v, ok := dmi[c.field]
	if !ok {
		return false
	}
	v, want := strings.ToLower(v), strings.ToLower(c.value)
	switch c.kind {
	case equal:
		return v == want
	case prefix:
		return strings.HasPrefix(v, want)
	case suffix:
		return strings.HasSuffix(v, want)
	default:
		return strings.Contains(v, want)
	}
}

// dmiRule names a hypervisor, a cloud or both when all its conditions hold.
type dmiRule struct {
	conds      []cond
	hypervisor string
	cloud      string
	// vm says the match alone makes the machine virtual; metal says it
	// makes it bare metal (a cloud's bare-metal instance).
	vm, metal bool
}

// cloudRules are tried first, in order; the first match gives the cloud
// and, where it says, the hypervisor. Values are what each provider's
// firmware reports.
var cloudRules = []dmiRule{
	// EC2 bare-metal instances (m5.metal, c6g.metal) keep the vendor.
	{conds: []cond{{"sys_vendor", equal, "Amazon EC2"}, {"product_name", suffix, ".metal"}}, cloud: "Amazon EC2", metal: true},
	// Nitro instances: a KVM-based hypervisor.
	{conds: []cond{{"sys_vendor", equal, "Amazon EC2"}}, hypervisor: "KVM", cloud: "Amazon EC2", vm: true},
	{conds: []cond{{"bios_vendor", equal, "Amazon EC2"}}, hypervisor: "KVM", cloud: "Amazon EC2", vm: true},
	// Older Xen instances: "4.11.amazon".
	{conds: []cond{{"bios_version", suffix, ".amazon"}}, hypervisor: "Xen", cloud: "Amazon EC2", vm: true},
	{conds: []cond{{"product_name", equal, "Google Compute Engine"}}, hypervisor: "KVM", cloud: "Google Compute Engine", vm: true},
	{conds: []cond{{"sys_vendor", equal, "Google"}}, hypervisor: "KVM", cloud: "Google Compute Engine", vm: true},
	{conds: []cond{{"chassis_asset_tag", equal, azureAssetTag}}, hypervisor: "Microsoft Hyper-V", cloud: "Microsoft Azure", vm: true},
	{conds: []cond{{"sys_vendor", equal, "Hetzner"}}, hypervisor: "KVM", cloud: "Hetzner Cloud", vm: true},
	{conds: []cond{{"sys_vendor", equal, "DigitalOcean"}}, hypervisor: "KVM", cloud: "DigitalOcean", vm: true},
	{conds: []cond{{"sys_vendor", prefix, "Alibaba Cloud"}}, hypervisor: "KVM", cloud: "Alibaba Cloud", vm: true},
	// Oracle Cloud marks bare-metal and virtual instances alike: the
	// cloud only, the other rules decide VM or not.
	{conds: []cond{{"chassis_asset_tag", equal, "OracleCloud.com"}}, cloud: "Oracle Cloud"},
}

// azureAssetTag is the chassis asset tag of every Azure virtual machine.
const azureAssetTag = "7783-7084-3265-9085-8269-3286-77"

// hypervisorRules name the hypervisor from its own firmware strings, in
// order; the first match wins.
var hypervisorRules = []dmiRule{
	{conds: []cond{{"sys_vendor", equal, "Microsoft Corporation"}, {"product_name", equal, "Virtual Machine"}}, hypervisor: "Microsoft Hyper-V", vm: true},
	{conds: []cond{{"sys_vendor", prefix, "VMware"}}, hypervisor: "VMware", vm: true},
	{conds: []cond{{"product_name", prefix, "VMware"}}, hypervisor: "VMware", vm: true},
	{conds: []cond{{"sys_vendor", equal, "innotek GmbH"}}, hypervisor: "VirtualBox", vm: true},
	{conds: []cond{{"product_name", equal, "VirtualBox"}}, hypervisor: "VirtualBox", vm: true},
	{conds: []cond{{"sys_vendor", equal, "Xen"}}, hypervisor: "Xen", vm: true},
	{conds: []cond{{"bios_vendor", equal, "Xen"}}, hypervisor: "Xen", vm: true},
	{conds: []cond{{"sys_vendor", prefix, "Parallels"}}, hypervisor: "Parallels", vm: true},
	{conds: []cond{{"product_name", prefix, "Parallels"}}, hypervisor: "Parallels", vm: true},
	{conds: []cond{{"sys_vendor", equal, "BHYVE"}}, hypervisor: "bhyve", vm: true},
	{conds: []cond{{"product_name", equal, "KVM"}}, hypervisor: "KVM", vm: true},
	// QEMU's arm64 "virt" machine with UEFI: "KVM Virtual Machine" when
	// accelerated, "QEMU Virtual Machine" otherwise.
	{conds: []cond{{"product_name", equal, "KVM Virtual Machine"}}, hypervisor: "KVM", vm: true},
	{conds: []cond{{"product_name", prefix, "OpenStack"}}, hypervisor: "KVM", vm: true},
	{conds: []cond{{"sys_vendor", equal, "QEMU"}}, hypervisor: "QEMU", vm: true},
	{conds: []cond{{"product_name", prefix, "QEMU"}}, hypervisor: "QEMU", vm: true},
	{conds: []cond{{"board_vendor", equal, "QEMU"}}, hypervisor: "QEMU", vm: true},
	{conds: []cond{{"chassis_vendor", equal, "QEMU"}}, hypervisor: "QEMU", vm: true},
}

func (r dmiRule) matches(dmi map[string]string) bool {
	for _, c := range r.conds {
		if !c.holds(dmi) {
			return false
		}
	}
	return len(r.conds) > 0
}

// matchDMI applies the rules: the cloud and its hypervisor from the first
// cloud rule that matches, else the hypervisor from the first hypervisor
// rule; vm when a matching rule makes the machine virtual, metal when a
// cloud says bare metal.
func matchDMI(dmi map[string]string) (cloud, hypervisor string, vm, metal bool) {
	if i := slices.IndexFunc(cloudRules, func(r dmiRule) bool { return r.matches(dmi) }); i >= 0 {
		r := cloudRules[i]
		cloud, hypervisor, vm, metal = r.cloud, r.hypervisor, r.vm, r.metal
	}
	if metal {
		return cloud, "", false, true
	}
	if i := slices.IndexFunc(hypervisorRules, func(r dmiRule) bool { return r.matches(dmi) }); i >= 0 {
		if hypervisor == "" {
			hypervisor = hypervisorRules[i].hypervisor
		}
		vm = true
	}
	return cloud, hypervisor, vm, false
}

// dmiEvidence lists the DMI fields that were read, in a fixed order.
func dmiEvidence(dmi map[string]string) []string {
	var out []string
	for _, f := range append(slices.Clone(dmiFields), "chassis_asset_tag") {
		if v, ok := dmi[f]; ok {
			out = append(out, fmt.Sprintf("%s%s: %q", dmiDir, f, v))
		}
	}
	return out
}
