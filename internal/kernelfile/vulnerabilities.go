package kernelfile

import "strings"

// VulnState is the state a file of /sys/devices/system/cpu/vulnerabilities
// reports.
type VulnState string

// States of a CPU vulnerability file.
const (
	// VulnNotAffected: "Not affected".
	VulnNotAffected VulnState = "not affected"
	// VulnMitigated: "Mitigation: …" (possibly partial, e.g. "; SMT
	// vulnerable": see Vulnerability.Detail).
	VulnMitigated VulnState = "mitigated"
	// VulnVulnerable: "Vulnerable", "Vulnerable: …", "Vulnerable; …",
	// "Processor vulnerable".
	VulnVulnerable VulnState = "vulnerable"
	// VulnUnknown: "Unknown: …", an empty file or any text the kernel
	// has not been seen to write.
	VulnUnknown VulnState = "unknown"
)

// Vulnerability is one vulnerability file parsed.
type Vulnerability struct {
	State VulnState
	// Detail is what follows the state ("PTI", "Dependent on hypervisor
	// status"), "" when nothing does.
	Detail string
}

// ParseVulnerability parses the one line of a file of
// /sys/devices/system/cpu/vulnerabilities. The kernel writes "Not
// affected", "Mitigation: DETAIL", "Vulnerable[: DETAIL]" or "Vulnerable;
// DETAIL", "Unknown: DETAIL" and, for itlb_multihit, the same after a
// "KVM: " prefix. Anything else is VulnUnknown with the text as Detail,
// never taken for safe.
func ParseVulnerability(s string) Vulnerability {
	s = strings.TrimSpace(s)
	if line, _, ok := strings.Cut(s, "\n"); ok {
		s = strings.TrimSpace(line)
	}
	body := strings.TrimPrefix(s, "KVM: ")
	detail := func(prefix string) string {
		d := strings.TrimSpace(strings.TrimPrefix(body, prefix))
		d = strings.TrimLeft(d, ":;")
		return strings.TrimSpace(d)
	}
	switch {
	case body == "Not affected":
		return Vulnerability{State: VulnNotAffected}
	case strings.HasPrefix(body, "Mitigation"):
		return Vulnerability{State: VulnMitigated, Detail: detail("Mitigation")}
	case strings.HasPrefix(body, "Vulnerable"):
		return Vulnerability{State: VulnVulnerable, Detail: detail("Vulnerable")}
	case strings.HasPrefix(body, "Processor vulnerable"):
		return Vulnerability{State: VulnVulnerable, Detail: detail("Processor vulnerable")}
	case strings.HasPrefix(body, "Unknown"):
		return Vulnerability{State: VulnUnknown, Detail: detail("Unknown")}
	}
	return Vulnerability{State: VulnUnknown, Detail: s}
}
