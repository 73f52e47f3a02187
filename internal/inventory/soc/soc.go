// Package soc identifies the board (device-tree model and compatible strings,
// Raspberry Pi revision, DMI) and guesses the SoC with the reason for the guess.
//
// The guess follows the strongest evidence available, in this order: the chip
// a kernel SoC driver names under /sys/devices/socN, the device tree's
// compatible strings, the Raspberry Pi revision code, the
// Hardware line of /proc/cpuinfo, the combination of CPU core types compared
// with a table of known SoCs (generated from the arm-socs-table data set by
// ./gen), and on x86 or LoongArch the processor's model name.
package soc

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"boardbench/internal/host"
	"boardbench/internal/inventory/cpu"
	"boardbench/internal/inventory/rpi"
	"boardbench/internal/kernelfile"
	"boardbench/internal/note"
)

// Board describes the board.
type Board struct {
	// Model is the board's name: the device-tree model, else the DMI
	// product, else the Model line of /proc/cpuinfo, else the model the
	// Raspberry Pi revision code names; "" when unknown.
	Model string `json:"model"`
	// ModelSource says where Model came from: "device-tree", "dmi",
	// "cpuinfo", "raspberry-pi-revision", or "" when unknown.
	ModelSource string `json:"model_source"`
	// Compatible lists the device tree's compatible strings, most specific
	// first; empty without a device tree.
	Compatible []string `json:"compatible"`
	// DMI holds the firmware's identification on x86 (and some ARM
	// servers); nil when the system has no DMI.
	DMI *DMI `json:"dmi"`
	// CPUInfoHardware is the Hardware line of /proc/cpuinfo (older ARM
	// kernels); "" when absent.
	CPUInfoHardware string `json:"cpuinfo_hardware"`
	// RaspberryPi is the decoded revision code on a Raspberry Pi; nil
	// elsewhere.
	RaspberryPi *rpi.Revision `json:"raspberry_pi"`
	// RaspberryPiSource is where the revision code was read:
	// "/proc/cpuinfo" or "device-tree"; "" when RaspberryPi is nil.
	RaspberryPiSource string `json:"raspberry_pi_source"`
	// Notes lists what could not be established and why.
	Notes note.List `json:"notes,omitempty"`
}

// DMI is the firmware's identification of the machine. Serial numbers and
// UUIDs are never read.
type DMI struct {
	SysVendor      string `json:"sys_vendor"`
	ProductName    string `json:"product_name"`
	ProductVersion string `json:"product_version"`
	BoardVendor    string `json:"board_vendor"`
	BoardName      string `json:"board_name"`
	BIOSVendor     string `json:"bios_vendor"`
	BIOSVersion    string `json:"bios_version"`
	BIOSDate       string `json:"bios_date"`
}

// Confidence values of a SoC guess, from strongest to weakest evidence.
const (
	ConfidenceKernelSoCInfo   = "kernel-socinfo"
	ConfidenceDeviceTree      = "device-tree"
	ConfidenceRevision        = "revision"
	ConfidenceCPUInfoHardware = "cpuinfo-hardware"
	ConfidenceCoreCombination = "core-combination"
	ConfidenceCPUModel        = "cpu-model"
	ConfidenceNone            = "none"
)

// maxGuessCandidates is the most equally good candidates joined into a
// guess; with more, the core combination says too little to guess.
const maxGuessCandidates = 6

// SoC is the guessed system-on-chip.
type SoC struct {
	// Guess names the SoC, e.g. "Rockchip RK3588"; several names joined by
	// " or " when the evidence fits each equally; "" when there is no idea.
	Guess string `json:"guess"`
	// Reason is a sentence saying what the guess rests on.
	Reason string `json:"reason"`
	// Confidence is the kind of evidence: "kernel-socinfo", "device-tree",
	// "revision", "cpuinfo-hardware", "core-combination", "cpu-model" or
	// "none".
	Confidence string `json:"confidence"`
	// Candidates lists every SoC the evidence allows, best first; empty
	// when the evidence names one SoC directly or none.
	Candidates []string `json:"candidates"`
	// KernelSoC lists the SoC devices the kernel registered
	// (/sys/devices/soc0, soc1, …) with what their drivers report; empty
	// when there is none.
	KernelSoC []KernelSoC `json:"kernel_soc"`
}

// Collect describes the board and guesses its SoC from h and the CPUs. It
// never fails; what cannot be read is listed in the board's Notes. redact
// has no effect today: no serial number or other identifier is read.
func Collect(h *host.Host, c cpu.Info, redact bool) (Board, SoC) {
	_ = redact
	b := Board{Compatible: []string{}}
	hasDT := false
	for _, base := range []string{"/proc/device-tree", "/sys/firmware/devicetree/base"} {
		model, errM := h.ReadFile(base + "/model")
		compat, errC := h.ReadFile(base + "/compatible")
		if errM != nil && errC != nil {
			continue
		}
		hasDT = true
		if errM == nil {
			b.Model = cleanString(strings.TrimRight(string(model), "\x00"))
			if b.Model != "" {
				b.ModelSource = "device-tree"
			}
		}
		if errC == nil {
			b.Compatible = splitNUL(compat)
		}
		break
	}
	b.DMI = collectDMI(h)
	if b.Model == "" && b.DMI != nil {
		if m := dmiModel(b.DMI); m != "" {
			b.Model, b.ModelSource = m, "dmi"
		}
	}

	var ci cpuinfoFacts
	if data, err := h.ReadFile("/proc/cpuinfo"); err == nil {
		ci = parseCPUInfo(string(data))
	} else {
		b.Notes.Add("/proc/cpuinfo", note.Unreadable)
	}
	b.CPUInfoHardware = cleanString(ci.Hardware)
	if b.Model == "" && ci.Model != "" {
		b.Model, b.ModelSource = cleanString(ci.Model), "cpuinfo"
	}
	hw, hwOK := guessFromHardware(b.CPUInfoHardware)

	if looksLikeRaspberryPi(b, ci, hw) {
		collectRevision(h, &b, ci, hasDT)
	}
	if b.Model == "" && b.RaspberryPi != nil && b.RaspberryPi.Model != "" {
		b.Model, b.ModelSource = b.RaspberryPi.Model, "raspberry-pi-revision"
	}
	if b.Model == "" {
		b.Notes.Add("board model", "no device-tree model, DMI product or cpuinfo Model line")
	}

	ks := readKernelSoCs(h)
	s := guess(b, c, ci, hw, hwOK, ks)
	s.KernelSoC = ks
	return b, s
}

// guess applies the evidence in order of strength.
func guess(b Board, c cpu.Info, ci cpuinfoFacts, hw hardwareGuess, hwOK bool, ks []KernelSoC) SoC {
	for _, compat := range b.Compatible {
		if compat == "linux,dummy-virt" {
			return SoC{Guess: "QEMU virtual machine (no physical SoC)", Confidence: ConfidenceDeviceTree, Candidates: []string{},
				Reason: `the device tree's compatible string "linux,dummy-virt" marks a QEMU virtual machine`}
		}
	}
	if s, ok := kernelSoCGuess(ks, b); ok {
		return s
	}
	if name, compat := socFromCompatible(b.Compatible); name != "" {
		return SoC{Guess: name, Confidence: ConfidenceDeviceTree, Candidates: []string{},
			Reason: fmt.Sprintf("the device tree's compatible string %q names it", compat)}
	}
	if r := b.RaspberryPi; r != nil && r.Known && r.Processor != "" {
		return SoC{Guess: "Broadcom " + r.Processor, Confidence: ConfidenceRevision, Candidates: []string{},
			Reason: fmt.Sprintf("the Raspberry Pi revision code %s (%s) names the processor", r.Code, r.Model)}
	}
	types := machineCoreTypes(c, ci)
	span := cpuSpan(c, ci)
	// fallback is a guess that names only a vendor, kept while other
	// evidence is tried.
	var fallback *SoC
	if hwOK {
		line := fmt.Sprintf("the Hardware line of /proc/cpuinfo (%q)", b.CPUInfoHardware)
		if hw.RaspberryPi && len(types) == 1 {
			if name := raspberryPiSoCByCore(types[0].Part); name != "" && types[0].Implementer == 0x41 {
				reason := line + " names a Raspberry Pi SoC"
				if name != hw.Name {
					reason += fmt.Sprintf("; Raspberry Pi kernels print that name on every model, and the %s cores make it a %s",
						describeCores(types), name)
				}
				return SoC{Guess: name, Confidence: ConfidenceCPUInfoHardware, Candidates: []string{}, Reason: reason}
			}
		}
		if s, vague, ok := namedGuess(line, hw, types, span, ci); ok && !vague {
			return s
		} else if ok {
			fallback = &s
		}
	}
	if name, compat := socFromCompatible([]string{ci.Machine}); name != "" {
		return SoC{Guess: name, Confidence: ConfidenceCPUInfoHardware, Candidates: []string{},
			Reason: fmt.Sprintf("the machine line of /proc/cpuinfo (%q) names it", compat)}
	}
	for _, l := range []struct{ what, value string }{{"system type", ci.SystemType}, {"model name", chipModelName(c, ci)}} {
		if g, ok := guessFromHardware(cleanString(l.value)); ok {
			line := fmt.Sprintf("the %s line of /proc/cpuinfo (%q)", l.what, cleanString(l.value))
			if s, vague, ok := namedGuess(line, g, types, span, ci); ok && !vague {
				return s
			} else if ok && fallback == nil {
				fallback = &s
			}
		}
	}
	if s, ok := riscvGuess(ci); ok {
		return s
	}
	if fallback != nil {
		return *fallback
	}
	if m := matchCoreCombination(types, span, ci.Features, "", nil, knownSoCs); len(m.Best) > 0 {
		if len(m.Best) <= maxGuessCandidates {
			return coreSoC(m, types)
		}
		return SoC{Confidence: ConfidenceNone, Candidates: m.All,
			Reason: fmt.Sprintf("the core combination %s fits %d known SoCs equally; too many to guess", describeCores(types), len(m.Best))}
	}
	if name := cpuModelName(c, ci); name != "" {
		return SoC{Guess: name, Confidence: ConfidenceCPUModel, Candidates: []string{},
			Reason: "the processor's model name in /proc/cpuinfo; on this architecture the processor is the chip"}
	}
	reason := "no device tree compatible string, Raspberry Pi revision, cpuinfo Hardware line or known core combination"
	if len(types) > 0 {
		reason = fmt.Sprintf("no device tree compatible string, Raspberry Pi revision or cpuinfo Hardware line, and the core combination %s matches no known SoC", describeCores(types))
	}
	return SoC{Confidence: ConfidenceNone, Candidates: []string{}, Reason: reason}
}

// namedGuess turns what a cpuinfo line names (a SoC, a family or a vendor)
// into a guess, narrowing a family or a vendor by the core combination.
// vague is set when only the vendor is named and the cores do not narrow
// it down: other evidence may still name the SoC. ok is false when the
// line names nothing.
func namedGuess(line string, hw hardwareGuess, types []coreType, span int, ci cpuinfoFacts) (s SoC, vague, ok bool) {
	if hw.Name != "" && hw.Members == nil {
		return SoC{Guess: hw.Name, Confidence: ConfidenceCPUInfoHardware, Candidates: []string{},
			Reason: line + " names it"}, false, true
	}
	m := matchCoreCombination(types, span, ci.Features, hw.Vendor, hw.memberFilter(), knownSoCs)
	if len(m.Best) > 0 && len(m.Best) <= maxGuessCandidates {
		s = coreSoC(m, types)
		if hw.Name != "" {
			s.Reason = fmt.Sprintf("%s names the %s; among its members, %s", line, hw.Name, s.Reason)
		} else {
			s.Reason = fmt.Sprintf("%s names only the vendor; among %s's SoCs, %s", line, hw.Vendor, s.Reason)
		}
		return s, false, true
	}
	if hw.Name != "" {
		return SoC{Guess: hw.Name, Confidence: ConfidenceCPUInfoHardware, Candidates: m.All,
			Reason: line + " names the family, and the core combination does not narrow it down"}, false, true
	}
	if hw.Vendor == "" {
		return SoC{}, false, false
	}
	return SoC{Guess: hw.Vendor + " (model not named)", Confidence: ConfidenceCPUInfoHardware, Candidates: m.All,
		Reason: line + " names only the vendor, and the core combination does not narrow it down"}, true, true
}

// chipModelName returns the "model name" line when it may name the chip
// (some ARM and RISC-V vendor kernels print "Phytium,D2000/8" or
// "bm1684x"): not on x86 and LoongArch, where the caller reads it as the
// processor, and not the generic names ARM kernels print.
func chipModelName(c cpu.Info, ci cpuinfoFacts) string {
	if ci.VendorID != "" || c.Arch == "x86_64" || c.Arch == "x86" || c.Arch == "loongarch64" || strings.HasPrefix(ci.ModelName, "Loongson") {
		return ""
	}
	if armGenericModel(ci.ModelName) {
		return ""
	}
	return ci.ModelName
}

// armGenericModel tells the model names ARM kernels print instead of a
// chip ("ARMv7 Processor rev 4 (v7l)", "AArch64 Processor rev 4").
func armGenericModel(s string) bool {
	return (strings.HasPrefix(s, "ARMv") || strings.HasPrefix(s, "AArch64")) && strings.Contains(strings.ToLower(s), "processor")
}

// coreSoC turns a core-combination match into a guess.
func coreSoC(m coreMatch, types []coreType) SoC {
	reason := fmt.Sprintf("a guess from the core combination %s", describeCores(types))
	switch {
	case m.ByCounts && m.ByFeatures:
		reason += ", the core counts and the crypto extensions"
	case m.ByCounts:
		reason += " and the core counts"
	case m.ByFeatures:
		reason += " and the crypto extensions"
	}
	if len(m.Best) == 1 {
		reason += ", which only this known SoC has"
	} else {
		reason += fmt.Sprintf(", which %d known SoCs share", len(m.Best))
	}
	if extra := len(m.All) - len(m.Best); extra > 0 {
		reason += fmt.Sprintf("; %d more with the same core types rank lower", extra)
	}
	if len(m.SameRevisions) > 0 && len(m.All) > 1 {
		reason += "; the recorded core revisions match " + strings.Join(m.SameRevisions, ", ")
	}
	return SoC{Guess: strings.Join(m.Best, " or "), Confidence: ConfidenceCoreCombination, Candidates: m.All, Reason: reason}
}

// cpuModelName returns the processor's model name on x86 and LoongArch,
// where it names the chip; "" elsewhere.
func cpuModelName(c cpu.Info, ci cpuinfoFacts) string {
	name := cleanString(ci.ModelName)
	if name == "" {
		return ""
	}
	switch {
	case c.Arch == "x86_64", ci.VendorID == "GenuineIntel", ci.VendorID == "AuthenticAMD",
		ci.VendorID == "HygonGenuine", ci.VendorID == "CentaurHauls", ci.VendorID == "Shanghai":
		return strings.Join(strings.Fields(name), " ")
	case c.Arch == "loongarch64", strings.HasPrefix(name, "Loongson"):
		return name
	}
	return ""
}

// looksLikeRaspberryPi reports whether anything marks the machine as a
// Raspberry Pi, so that a Revision line is worth decoding (other boards
// print codes such as "0000" that mean nothing).
func looksLikeRaspberryPi(b Board, ci cpuinfoFacts, hw hardwareGuess) bool {
	if hw.RaspberryPi || strings.HasPrefix(b.Model, "Raspberry Pi") || strings.HasPrefix(ci.Model, "Raspberry Pi") {
		return true
	}
	for _, c := range b.Compatible {
		if strings.HasPrefix(c, "raspberrypi,") {
			return true
		}
	}
	return false
}

// collectRevision decodes the Raspberry Pi revision code from /proc/cpuinfo
// or the device tree.
func collectRevision(h *host.Host, b *Board, ci cpuinfoFacts, hasDT bool) {
	if ci.Revision != "" {
		if code, err := rpi.ParseRevision(ci.Revision); err == nil {
			r := rpi.DecodeRevision(code)
			b.RaspberryPi, b.RaspberryPiSource = &r, "/proc/cpuinfo"
		} else {
			b.Notes.Add("Raspberry Pi revision", note.Malformed+": "+err.Error())
		}
	}
	if b.RaspberryPi == nil && hasDT {
		if data, err := h.ReadFile("/proc/device-tree/system/linux,revision"); err == nil {
			if code, err := rpi.RevisionFromDT(data); err == nil {
				r := rpi.DecodeRevision(code)
				b.RaspberryPi, b.RaspberryPiSource = &r, "device-tree"
			} else {
				b.Notes.Add("Raspberry Pi revision", note.Malformed+": "+err.Error())
			}
		}
	}
	switch {
	case b.RaspberryPi == nil:
		b.Notes.Add("Raspberry Pi revision", note.NotExposed)
	case !b.RaspberryPi.Known:
		b.Notes.Add("Raspberry Pi revision", "code "+b.RaspberryPi.Code+" names no known board")
	}
}

// dmiFields are the DMI files read, never serial numbers or UUIDs.
var dmiFields = []string{"sys_vendor", "product_name", "product_version", "board_vendor", "board_name",
	"bios_vendor", "bios_version", "bios_date"}

func collectDMI(h *host.Host) *DMI {
	vals := map[string]string{}
	for _, f := range dmiFields {
		if v, err := h.ReadString("/sys/class/dmi/id/" + f); err == nil {
			vals[f] = cleanString(v)
		}
	}
	if len(vals) == 0 {
		return nil
	}
	return &DMI{
		SysVendor: vals["sys_vendor"], ProductName: vals["product_name"], ProductVersion: vals["product_version"],
		BoardVendor: vals["board_vendor"], BoardName: vals["board_name"],
		BIOSVendor: vals["bios_vendor"], BIOSVersion: vals["bios_version"], BIOSDate: vals["bios_date"],
	}
}

// dmiPlaceholder reports the values (lower case) firmware vendors leave in
// DMI fields they did not fill in. (A switch, not a map literal, so that it
// costs nothing when boardbench starts.)
func dmiPlaceholder(v string) bool {
	switch v {
	case "to be filled by o.e.m.", "default string", "not applicable",
		"system manufacturer", "system product name", "not specified",
		"o.e.m.", "oem", "none", "unknown", "type1productconfigid",
		"system version", "base board manufacturer", "base board product name":
		return true
	}
	return false
}

func dmiReal(s string) string {
	if dmiPlaceholder(strings.ToLower(strings.TrimSpace(s))) {
		return ""
	}
	return s
}

// dmiModel names the machine from DMI: vendor and product, or board vendor
// and board name when the product fields hold placeholders.
func dmiModel(d *DMI) string {
	join := func(vendor, product string) string {
		vendor, product = dmiReal(vendor), dmiReal(product)
		switch {
		case product == "":
			return ""
		case vendor == "" || strings.HasPrefix(strings.ToLower(product), strings.ToLower(vendor)):
			return product
		}
		return vendor + " " + product
	}
	if m := join(d.SysVendor, d.ProductName); m != "" {
		return m
	}
	return join(d.BoardVendor, d.BoardName)
}

// splitNUL splits a device-tree string list.
func splitNUL(b []byte) []string {
	out := []string{}
	for _, s := range kernelfile.ParseStringList(b) {
		if s = cleanString(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// cleanString drops control characters and invalid UTF-8 and trims s.
func cleanString(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r == utf8.RuneError || unicode.IsControl(r) }) {
		return strings.TrimSpace(s)
	}
	var b strings.Builder
	for _, r := range s {
		if r != utf8.RuneError && !unicode.IsControl(r) {
			b.WriteRune(r)
		}
	}
	return strings.TrimSpace(b.String())
}
