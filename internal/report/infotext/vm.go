package infotext

import "boardbench/internal/inventory/virt"

// vmLine renders the virtual-machine verdict for the Board and SoC section:
// "KVM (Amazon EC2)", "yes (hypervisor not named)", "no", "no (bare-metal
// Amazon EC2 instance)" or "unknown (nothing tells on this machine)".
func vmLine(v virt.Info) string {
	switch {
	case v.IsVM == nil:
		return "unknown (nothing tells on this machine)"
	case !*v.IsVM:
		if v.Cloud != "" {
			return "no (bare-metal " + v.Cloud + " instance)"
		}
		return "no"
	}
	s := v.Hypervisor
	if s == "" {
		s = "yes (hypervisor not named)"
	}
	if v.Cloud != "" {
		s += " (" + v.Cloud + ")"
	}
	return s
}
