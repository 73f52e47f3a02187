package kernelfile

import "testing"

func TestParseVulnerability(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Vulnerability
	}{
		{"Not affected\n", Vulnerability{State: VulnNotAffected}},
		{"Mitigation: PTI\n", Vulnerability{VulnMitigated, "PTI"}},
		{"Mitigation: Clear CPU buffers; SMT vulnerable", Vulnerability{VulnMitigated, "Clear CPU buffers; SMT vulnerable"}},
		{"Vulnerable\n", Vulnerability{State: VulnVulnerable}},
		{"Vulnerable: Clear CPU buffers attempted, no microcode; SMT vulnerable", Vulnerability{VulnVulnerable, "Clear CPU buffers attempted, no microcode; SMT vulnerable"}},
		{"Vulnerable; SMT disabled", Vulnerability{VulnVulnerable, "SMT disabled"}},
		{"Processor vulnerable", Vulnerability{State: VulnVulnerable}},
		{"KVM: Mitigation: VMX disabled", Vulnerability{VulnMitigated, "VMX disabled"}},
		{"KVM: Vulnerable", Vulnerability{State: VulnVulnerable}},
		{"Unknown: Dependent on hypervisor status", Vulnerability{VulnUnknown, "Dependent on hypervisor status"}},
		{"", Vulnerability{State: VulnUnknown}},
		{"something new", Vulnerability{VulnUnknown, "something new"}},
		{"Not affected but odd", Vulnerability{VulnUnknown, "Not affected but odd"}},
	} {
		if got := ParseVulnerability(tc.in); got != tc.want {
			t.Errorf("ParseVulnerability(%q) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}
