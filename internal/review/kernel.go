package review

import (
	"fmt"
	"slices"
	"strings"

	"boardbench/internal/kernelfile"
	"boardbench/internal/kernelinfo"
)

// VulnerabilitiesDir holds one file per CPU vulnerability.
const VulnerabilitiesDir = "/sys/devices/system/cpu/vulnerabilities"

// mitigationCost says what a mitigation costs, per vulnerability file;
// ok is false for a file it knows nothing about.
func mitigationCost(file string) (cost string, ok bool) {
	switch file {
	case "meltdown":
		return "page-table isolation: every system call and interrupt switches page tables (up to 30 % on syscall-heavy loads)", true
	case "spectre_v2":
		return "indirect-branch protection (retpolines, IBRS): a few percent, more on branchy code", true
	case "retbleed":
		return "return-stack protection: up to 10–30 % on some older cores", true
	case "spec_rstack_overflow":
		return "safe-return sequences on AMD Zen: several percent on kernel-heavy loads", true
	case "mds", "mmio_stale_data", "tsx_async_abort":
		return "buffer clearing on every return to user space", true
	case "gather_data_sampling":
		return "slower AVX gather instructions", true
	case "l1tf":
		return "L1 flushes when entering guests", true
	case "srbds":
		return "slower RDRAND/RDSEED", true
	case "reg_file_data_sampling":
		return "register clearing on every return to user space", true
	}
	return "", false
}

func cpuMitigations(e *Env) []Finding {
	names, _ := e.H.ReadDirNames(VulnerabilitiesDir)
	slices.Sort(names)
	var evidence, costs []string
	for _, n := range names {
		v, ok := e.Read(AreaKernel, VulnerabilitiesDir+"/"+n)
		if !ok || kernelfile.ParseVulnerability(v).State != kernelfile.VulnMitigated {
			continue
		}
		evidence = append(evidence, ev(VulnerabilitiesDir+"/"+n, v))
		if c, ok := mitigationCost(n); ok {
			costs = append(costs, n+": "+c)
		}
	}
	cmdline, _ := e.Read(AreaKernel, "/proc/cmdline")
	if strings.Contains(cmdline, "mitigations=off") {
		return []Finding{info("CPU vulnerability mitigations are switched off (mitigations=off)",
			"compare results only with machines that run the same way; remove mitigations=off on a machine that runs untrusted code",
			"the kernel command line", "exposure to the CPU vulnerabilities", ev("/proc/cmdline", cmdline))}
	}
	if len(evidence) == 0 {
		return nil
	}
	title := fmt.Sprintf("%d CPU vulnerability mitigation(s) in force; they cost speed on kernel-heavy work", len(evidence))
	cost := "exposure to the vulnerabilities listed"
	if len(costs) > 0 {
		cost += "; what they cost now: " + strings.Join(costs, "; ")
	}
	return []Finding{info(title,
		"compare results only between machines with the same mitigations; on a machine that runs no untrusted code, mitigations=off on the kernel command line removes them",
		"the kernel command line (extlinux.conf APPEND, cmdline.txt, GRUB_CMDLINE_LINUX)",
		cost, evidence...)}
}

// cpuVulnerable: the kernel says the CPU is exposed to a vulnerability
// ("Vulnerable…"), mitigations switched off or missing microcode alike.
func cpuVulnerable(e *Env) []Finding {
	evidence := vulnerabilitiesIn(e, kernelfile.VulnVulnerable)
	if len(evidence) == 0 {
		return nil
	}
	return []Finding{warn(fmt.Sprintf("the kernel reports %d CPU vulnerability(ies) without mitigation", len(evidence)),
		"on a machine that runs untrusted code (other users, containers, a browser), remove mitigations=off or the per-vulnerability =off switch from the kernel command line and update the CPU microcode (intel-microcode, amd64-microcode) and the kernel; on a benchmark-only machine, keep it and compare only with machines that run the same way",
		"the kernel command line (extlinux.conf APPEND, cmdline.txt, GRUB_CMDLINE_LINUX) and the OS's microcode and kernel packages",
		"the mitigations cost speed on kernel-heavy work (see cpu_mitigations)", evidence...)}
}

// cpuVulnerabilityUnknown: the kernel cannot say whether the CPU is
// exposed ("Unknown: …", typically a virtual machine's CPU), or writes a
// state boardbench does not know.
func cpuVulnerabilityUnknown(e *Env) []Finding {
	evidence := vulnerabilitiesIn(e, kernelfile.VulnUnknown)
	if len(evidence) == 0 {
		return nil
	}
	return []Finding{info(fmt.Sprintf("the kernel cannot say whether the CPU is exposed to %d vulnerability(ies)", len(evidence)),
		"in a virtual machine, the hypervisor decides: check the host; on bare metal, a newer kernel knows more CPUs",
		"the host's or the OS's kernel", "none", evidence...)}
}

// vulnerabilitiesIn returns the evidence of the vulnerability files in
// state st, by name.
func vulnerabilitiesIn(e *Env, st kernelfile.VulnState) []string {
	names, _ := e.H.ReadDirNames(VulnerabilitiesDir)
	slices.Sort(names)
	var evidence []string
	for _, n := range names {
		v, ok := e.Read(AreaKernel, VulnerabilitiesDir+"/"+n)
		if ok && kernelfile.ParseVulnerability(v).State == st {
			evidence = append(evidence, ev(VulnerabilitiesDir+"/"+n, v))
		}
	}
	return evidence
}

func kernelEOL(e *Env) []Finding {
	k := kernelinfo.Collect(e.H, e.Now)
	e.Note(AreaKernel, "kernel", k.Summary())
	ended := k.Maintained != nil && !*k.Maintained
	if !ended && !k.FarBehind {
		return nil
	}
	evidence := []string{
		"/proc/sys/kernel/osrelease: " + k.Release,
		"kernel: " + k.Status,
	}
	if k.Build != "" {
		evidence = append(evidence, "/proc/sys/kernel/version: "+k.Build)
	}
	evidence = append(evidence, k.KindEvidence...)
	evidence = append(evidence, "kernel table dated "+k.TableDate.Format("2006-01-02"))
	if ended && k.Kind == kernelinfo.KindDistribution && !k.Longterm {
		// kernel.org's short-lived series, but the distribution keeps
		// fixing its own kernel of that series: nothing held back.
		return []Finding{info(
			fmt.Sprintf("kernel %s: series %s is not a kernel.org longterm series; %s maintains this kernel", k.Release, k.Series, k.Distribution),
			"keep the distribution's kernel updated; compare results only with machines on the same kernel series",
			"the OS's kernel package", "none", evidence...)}
	}
	var title string
	switch {
	case ended && k.Kind == kernelinfo.KindVendor:
		title = fmt.Sprintf("vendor kernel %s on series %s, which kernel.org no longer maintains", k.Release, k.Series)
	case ended:
		title = fmt.Sprintf("kernel %s: series %s no longer gets fixes from kernel.org", k.Release, k.Series)
	default:
		title = fmt.Sprintf("vendor kernel %s is far behind mainline (series %s)", k.Release, k.Series)
	}
	if k.MonthsBehind != nil && *k.MonthsBehind > 0 {
		title += "; its build is " + k.Age()
	}
	cost := "a newer kernel can change results: measure again after the upgrade"
	if k.Kind == kernelinfo.KindVendor {
		cost = "mainline may lack drivers the vendor kernel has (NPU, video codecs, some display or PCIe support on new SoCs)"
	}
	return []Finding{warn(title,
		"move to a maintained series: the distribution's current kernel, or a mainline-based branch of the board's OS (Armbian \"current\"); check `boardbench kernel` for details",
		"the OS's kernel package", cost, evidence...)}
}
