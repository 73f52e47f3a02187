package sbcimport

import (
	"boardbench/internal/lazyre"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/soc"
)

// ConfidenceLogGuess is the soc.SoC Confidence of a SoC an imported result
// takes from the log's own "SoC guess" line.
const ConfidenceLogGuess = "imported-log-guess"

// ConfidenceFirmwareProcessor is the Confidence of a SoC an imported
// result takes from the processor name the firmware reports (lscpu's
// "BIOS Model name" line, on ARM machines without a better statement).
const ConfidenceFirmwareProcessor = "imported-log-firmware"

// Identity is what a log says about the machine beyond its first line and
// the kernel lines: the lines boardbench reads to fill the SoC, the board
// and the core types of an imported result. Every field is "" or empty
// when the log does not print it.
type Identity struct {
	// SoCGuess is the text of the log's "SoC guess:" line, as printed.
	SoCGuess string
	// Compatible are the device-tree compatible strings of the log's "DT
	// compat:" line and its continuation lines, most specific first.
	Compatible []string
	// CPUInfoHardware is the "Hardware" line of /proc/cpuinfo, when the log
	// printed that file.
	CPUInfoHardware string
	// LscpuVendor is lscpu's "Vendor ID"; LscpuModelNames its "Model name"
	// values, each once, in order.
	LscpuVendor     string
	LscpuModelNames []string
	// BIOSModelName is lscpu's "BIOS Model name": the processor as the
	// firmware (SMBIOS) names it.
	BIOSModelName string
	// ArmbianBoardName is BOARD_NAME of the Armbian release file the
	// earliest logs print.
	ArmbianBoardName string
	// DMIManufacturer and DMIProduct are the "Device Info" section's
	// Manufacturer and Product Name.
	DMIManufacturer, DMIProduct string
	// Governors are the cpufreq governors by policy, from the log's
	// "Original governor settings" (before the benchmark changed them).
	Governors map[int]string
}

var (
	reSoCGuess      = lazyre.Regexp(`^SoC guess: (.*\S)\s*$`)
	reDTCompat      = lazyre.Regexp(`^DT compat: (\S+)\s*$`)
	reDTCompatMore  = lazyre.Regexp(`^\s+([^\s:]+)\s*$`)
	reHardware      = lazyre.Regexp(`^Hardware\s*:\s*(.*\S)\s*$`)
	reLscpuVendor   = lazyre.Regexp(`^Vendor ID:\s+(.*\S)\s*$`)
	reLscpuModel    = lazyre.Regexp(`^\s*Model name:\s+(.*\S)\s*$`)
	reBIOSModel     = lazyre.Regexp(`^\s*BIOS Model name:\s+(.*\S)\s*$`)
	reBIOSClock     = lazyre.Regexp(`\s*\bCPU @ [\d.]+\s*GHz$`)
	reArmbianBoard  = lazyre.Regexp(`^BOARD_NAME="?([^"]*)"?\s*$`)
	reDMIField      = lazyre.Regexp(`^\t(Manufacturer|Product Name): (.*\S)\s*$`)
	reGovernor      = lazyre.Regexp(`^\s+cpufreq-policy(\d+): (\S+) /`)
	reDpkgArch      = lazyre.Regexp(`^Architecture:\t(\S+)\s*$`)
	reKernelLine    = lazyre.Regexp(`^\s+Kernel: (\d\S*)/(\S+)\s*$`)
	reGuessCaveat   = lazyre.Regexp(`^(.*?) / ((?:guess|guessing) .*)$`)
	reGuessURL      = lazyre.Regexp(`^(.*?) or https?://\S+$`)
	reGuessChipID   = lazyre.Regexp(`^(.*?) \((?:SID: )?[0-9a-fA-F]{8}\b[^()]*\)$`)
	reGuessRevision = lazyre.Regexp(`^(.*?) (?:Revision|Rev[A-Z]\b)(?: .*)?$`)
)

// readIdentity fills l.Identity, and the userland and kernel where the
// usual lines did not give them, from the lines the parser does not read.
func (l *Log) readIdentity(lines []string) {
	id := &l.Identity
	inDMI, inGovernors := false, false
	for i, line := range lines {
		switch {
		case id.SoCGuess == "" && reSoCGuess.MatchString(line):
			id.SoCGuess = reSoCGuess.FindStringSubmatch(line)[1]
		case id.Compatible == nil && reDTCompat.MatchString(line):
			id.Compatible = []string{reDTCompat.FindStringSubmatch(line)[1]}
			for _, more := range lines[i+1:] {
				m := reDTCompatMore.FindStringSubmatch(more)
				if m == nil {
					break
				}
				id.Compatible = append(id.Compatible, m[1])
			}
		case id.CPUInfoHardware == "" && reHardware.MatchString(line):
			id.CPUInfoHardware = reHardware.FindStringSubmatch(line)[1]
		case id.LscpuVendor == "" && reLscpuVendor.MatchString(line):
			id.LscpuVendor = reLscpuVendor.FindStringSubmatch(line)[1]
		case id.BIOSModelName == "" && reBIOSModel.MatchString(line):
			id.BIOSModelName = strings.Join(strings.Fields(reBIOSModel.FindStringSubmatch(line)[1]), " ")
		case reLscpuModel.MatchString(line):
			name := strings.Join(strings.Fields(reLscpuModel.FindStringSubmatch(line)[1]), " ")
			if !slices.Contains(id.LscpuModelNames, name) {
				id.LscpuModelNames = append(id.LscpuModelNames, name)
			}
		case id.ArmbianBoardName == "" && reArmbianBoard.MatchString(line):
			id.ArmbianBoardName = strings.TrimSpace(reArmbianBoard.FindStringSubmatch(line)[1])
		case strings.HasPrefix(line, "Device Info:"):
			inDMI = true
		case inDMI && reDMIField.MatchString(line):
			m := reDMIField.FindStringSubmatch(line)
			if m[1] == "Manufacturer" {
				id.DMIManufacturer = m[2]
			} else {
				id.DMIProduct = m[2]
			}
		case strings.HasPrefix(line, "Original governor settings"):
			inGovernors = true
		case inGovernors && reGovernor.MatchString(line):
			m := reGovernor.FindStringSubmatch(line)
			if id.Governors == nil {
				id.Governors = map[int]string{}
			}
			n, _ := strconv.Atoi(m[1])
			id.Governors[n] = m[2]
		case l.Userland == "" && reDpkgArch.MatchString(line):
			// dpkg's architecture, "unknown/aarch64" where dpkg is absent
			a, _, _ := strings.Cut(reDpkgArch.FindStringSubmatch(line)[1], "/")
			if a != "unknown" {
				l.Userland = a
			}
		case l.KernelRelease == "" && reKernelLine.MatchString(line):
			m := reKernelLine.FindStringSubmatch(line)
			l.KernelRelease, l.Machine = m[1], m[2]
		}
		if strings.TrimSpace(line) == "" {
			inDMI = false
		}
		if strings.HasPrefix(line, "Tuned governor settings") {
			inGovernors = false
		}
	}
}

// CleanSoCGuess splits the text of a log's "SoC guess" line into the SoC
// it names and the caveat the log adds ("guess flawed since running in
// proot"). The SoC drops the details printed after the name: chip ids in
// parentheses ("(35880000 / ...)", "(SID: 33802000)"), Amlogic revisions
// ("Revision 29:c (40:2)", "RevA (1d - 0:74E) detected") and an "or URL"
// pointer. ok is false when the line names no SoC ("Not able to guess
// ...").
func CleanSoCGuess(text string) (name, caveat string, ok bool) {
	name = strings.TrimSpace(text)
	if name == "" || strings.HasPrefix(name, "Not able to guess") {
		return "", "", false
	}
	if m := reGuessCaveat.FindStringSubmatch(name); m != nil {
		name, caveat = m[1], m[2]
	}
	if m := reGuessURL.FindStringSubmatch(name); m != nil {
		name = m[1]
	}
	if m := reGuessChipID.FindStringSubmatch(name); m != nil {
		name = m[1]
	}
	if m := reGuessRevision.FindStringSubmatch(name); m != nil {
		name = m[1]
	}
	name = strings.TrimSpace(name)
	return name, caveat, name != ""
}

// x86Vendors are lscpu vendor ids of processors that are the chip itself.
var x86Vendors = []string{"GenuineIntel", "AuthenticAMD", "HygonGenuine", "CentaurHauls", "Shanghai"}

// socOf is the SoC as the log states it, strongest statement first: its
// own "SoC guess" line, the SoC its device-tree compatible strings name,
// the Hardware line of /proc/cpuinfo, on x86 and LoongArch the processor's
// model name (the processor is the chip there), elsewhere the processor
// name the firmware reports (without its clock). Nothing else
// is guessed: without any of them the SoC stays unknown.
func (l *Log) socOf() soc.SoC {
	id := l.Identity
	s := soc.SoC{Candidates: []string{}, KernelSoC: []soc.KernelSoC{}}
	var skipped string
	if id.SoCGuess != "" {
		if name, caveat, ok := CleanSoCGuess(id.SoCGuess); ok {
			s.Guess, s.Confidence = name, ConfidenceLogGuess
			s.Reason = fmt.Sprintf("the imported log's \"SoC guess\" line: %q", id.SoCGuess)
			if caveat != "" {
				s.Reason += "; the log adds: " + caveat
			}
			return s
		}
		skipped = fmt.Sprintf("the log's \"SoC guess\" line names none (%q); ", id.SoCGuess)
	}
	if name, compat := soc.FromCompatible(id.Compatible); name != "" {
		s.Guess, s.Confidence = name, soc.ConfidenceDeviceTree
		s.Reason = skipped + fmt.Sprintf("the device tree's compatible string %q the imported log printed names it", compat)
		return s
	}
	if hw := id.CPUInfoHardware; hw != "" && !strings.HasPrefix(hw, "BCM2") {
		// Raspberry Pi kernels print BCM2835 (or BCM2708/9) on every model
		s.Guess, s.Confidence = hw, soc.ConfidenceCPUInfoHardware
		s.Reason = skipped + fmt.Sprintf("the Hardware line of /proc/cpuinfo the imported log printed (%q)", hw)
		return s
	}
	if len(id.LscpuModelNames) > 0 && (slices.Contains(x86Vendors, id.LscpuVendor) || strings.HasPrefix(id.LscpuModelNames[0], "Loongson")) {
		s.Guess, s.Confidence = id.LscpuModelNames[0], soc.ConfidenceCPUModel
		s.Reason = skipped + "the processor's model name in the imported log's lscpu output; on this architecture the processor is the chip"
		return s
	}
	if name := strings.TrimSpace(reBIOSClock.ReplaceAllString(id.BIOSModelName, "")); name != "" && !slices.Contains(x86Vendors, id.LscpuVendor) {
		s.Guess, s.Confidence = name, ConfidenceFirmwareProcessor
		s.Reason = skipped + fmt.Sprintf("the processor name the firmware reports (lscpu's \"BIOS Model name\" in the imported log: %q)", id.BIOSModelName)
		return s
	}
	s.Confidence = soc.ConfidenceNone
	s.Reason = skipped + "the imported log names no SoC: no \"SoC guess\" line, no device-tree compatible string boardbench knows, no Hardware line and no x86 or LoongArch model name"
	return s
}

// boardModel is the board as the log names it, with where the name comes
// from: the first line, else the Armbian release file's BOARD_NAME, else
// the firmware's manufacturer and product ("Device Info").
func (l *Log) boardModel() (model, source string) {
	id := l.Identity
	switch {
	case l.Device != "":
		return l.Device, "imported-log-first-line"
	case id.ArmbianBoardName != "":
		return id.ArmbianBoardName, "imported-log-armbian-release"
	case id.DMIProduct != "":
		return strings.Join(strings.Fields(id.DMIManufacturer+" "+id.DMIProduct), " "), "imported-log-dmi"
	}
	return "", ""
}

// clustersWithoutTopology describes the CPUs of a log that printed no
// topology table, from what it states instead: the core type each cpufreq
// check names with its CPUs ("Checking cpufreq OPP for cpu4-cpu7
// (Cortex-A15)"); else, with several checks that name their CPUs but no
// core type ("for cpu0-cpu3", the 0.4 to 0.6 logs), one cluster of unknown
// core type per check; else lscpu's one model name when the cpufreq checks
// show at most one group of CPUs (older lscpu versions print the first
// CPU's name only, so a log with several groups says nothing of the
// others). Each cluster's maximum clock is the highest OPP its check lists.
// It returns nil when the log states none of these.
func (l *Log) clustersWithoutTopology() ([]cpu.Cluster, string) {
	var groups []ClusterCheck
	for _, c := range l.Clock {
		if !slices.ContainsFunc(groups, func(g ClusterCheck) bool { return slices.Equal(g.CPUs, c.CPUs) }) {
			groups = append(groups, c)
		}
	}
	named, listed := len(groups) > 0, len(groups) > 1
	for _, g := range groups {
		named = named && g.Core != "" && len(g.CPUs) > 0
		listed = listed && len(g.CPUs) > 0
	}
	if named || listed {
		var out []cpu.Cluster
		for k, g := range groups {
			out = append(out, cpu.Cluster{ID: k, CPUs: slices.Clone(g.CPUs), Core: g.Core, CoreName: g.Core, MaxMHz: topOPP(g)})
		}
		if !named {
			return out, "the CPUs of the log's cpufreq checks (which name no core type)"
		}
		return out, "the core types the log's cpufreq checks name"
	}
	names := l.Identity.LscpuModelNames
	n := l.CPUCount
	if len(names) != 1 || len(groups) > 1 || n <= 0 || strings.HasPrefix(names[0], "ARMv") {
		return nil, ""
	}
	ids := make([]int, n)
	for i := range ids {
		ids[i] = i
	}
	cl := cpu.Cluster{ID: 0, CPUs: ids, Core: names[0], CoreName: names[0]}
	if len(groups) == 1 {
		cl.MaxMHz = topOPP(groups[0])
	}
	return []cpu.Cluster{cl}, "lscpu's model name, the one the log prints for all CPUs"
}

// topOPP is the highest cpufreq OPP a check lists; nil without cpufreq.
func topOPP(c ClusterCheck) *float64 {
	if c.NoCpufreq || len(c.OPPs) == 0 || c.OPPs[0].OPPMHz <= 0 {
		return nil
	}
	v := c.OPPs[0].OPPMHz
	return &v
}
