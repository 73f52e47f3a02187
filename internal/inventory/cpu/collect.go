package cpu

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
	"boardbench/internal/note"
)

// sysCPU is the kernel's CPU directory.
const sysCPU = "/sys/devices/system/cpu"

// collector holds the state of one Collect call.
type collector struct {
	h    *host.Host
	info Info
	file kernelfile.CPUInfo
	// haveCPUInfo is true when /proc/cpuinfo was read.
	haveCPUInfo bool
	entries     map[int]*kernelfile.CPUInfoEntry
	// sysfs is true when /sys/devices/system/cpu lists CPUs.
	sysfs bool
	// features holds each CPU's feature list (nil: none reported).
	features map[int][]string
	// parts holds the part numbers of CPUs whose "CPU part" line named
	// several parts.
	parts map[int][]uint64
	// unknownWhy says why a CPU's core type is unknown.
	unknownWhy map[int]string
	// policyDirs maps policy ids to their sysfs directory.
	policyDirs map[int]string
	grouped    groupedNotes
}

func newCollector(h *host.Host) *collector {
	return &collector{
		h:          h,
		entries:    map[int]*kernelfile.CPUInfoEntry{},
		features:   map[int][]string{},
		parts:      map[int][]uint64{},
		unknownWhy: map[int]string{},
		policyDirs: map[int]string{},
	}
}

// missingReason explains a file that is not there. A recorded root is read
// as the machine it was recorded from, so the wording is the same for both:
// a capture replays to the same description as the live machine.
func (c *collector) missingReason() string {
	return note.NotExposed
}

// readReason turns a read error into a note reason.
func (c *collector) readReason(err error) string {
	switch {
	case errors.Is(err, fs.ErrPermission):
		return note.NeedsRoot
	case errors.Is(err, fs.ErrNotExist):
		return c.missingReason()
	case errors.Is(err, host.ErrNotAllowed):
		return "not on boardbench's list of safe paths"
	}
	return note.Unreadable
}

func (c *collector) collect() Info {
	c.readCPUInfo()
	c.detectArch()
	ids := c.cpuIDs()
	c.info.CPUs = make([]CPU, 0, len(ids))
	for _, id := range ids {
		c.info.CPUs = append(c.info.CPUs, c.identify(id))
	}
	if c.sysfs {
		c.readOnline()
		c.readTopology()
		c.readCPUFreq()
		c.readCapacity()
		c.readHybrid()
		c.readCaches()
	} else {
		for i := range c.info.CPUs {
			if c.entries[c.info.CPUs[i].ID] != nil {
				c.info.CPUs[i].Online = boolPtr(true)
			}
		}
	}
	c.resolveAmbiguousParts()
	c.buildClusters()
	c.summarize()
	return c.info
}

func (c *collector) readCPUInfo() {
	data, err := c.h.ReadFile("/proc/cpuinfo")
	if err != nil {
		c.info.Notes.Add("/proc/cpuinfo", c.readReason(err))
		return
	}
	c.haveCPUInfo = true
	c.file = kernelfile.ParseCPUInfo(data)
	for i := range c.file.Entries {
		c.entries[c.file.Entries[i].ID] = &c.file.Entries[i]
	}
	if hw := c.file.Global["Hardware"]; printableASCII(hw) {
		c.info.Hardware = hw
	}
	if c.file.SharedBlock {
		c.info.Notes.Add("core type of each CPU", "this kernel prints the MIDR once for all CPUs in /proc/cpuinfo: it describes the CPU that read the file, so other core types of a big.LITTLE SoC may be hidden")
	}
	if c.file.Duplicates > 0 {
		c.info.Notes.Add("/proc/cpuinfo", fmt.Sprintf("%s: %d repeated CPU records ignored", note.Malformed, c.file.Duplicates))
	}
}

func (c *collector) detectArch() {
	if a := ArchFromMachine(c.h.Uname().Machine); a != "" {
		c.info.Arch, c.info.ArchSource = a, "uname"
		return
	}
	if a := ArchFromCPUInfo(&c.file); a != "" {
		c.info.Arch, c.info.ArchSource = a, "cpuinfo"
		return
	}
	c.info.Notes.Add("architecture", "no kernel machine name and nothing recognisable in /proc/cpuinfo")
}

// cpuIDs returns the CPUs sysfs or /proc/cpuinfo know, ascending.
func (c *collector) cpuIDs() []int {
	seen := map[int]bool{}
	if names, err := c.h.ReadDirNames(sysCPU); err == nil {
		for _, n := range names {
			if id, ok := cpuDirID(n); ok {
				seen[id] = true
				c.sysfs = true
			}
		}
	}
	for id := range c.entries {
		seen[id] = true
	}
	ids := slices.Sorted(maps.Keys(seen))
	if len(ids) == 0 {
		c.info.Notes.Add("CPUs", "neither /proc/cpuinfo nor /sys/devices/system/cpu lists any CPU")
	}
	return ids
}

// cpuDirID parses "cpu12" → 12.
func cpuDirID(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, "cpu")
	if !ok || rest == "" {
		return 0, false
	}
	for i := 0; i < len(rest); i++ {
		if rest[i] < '0' || rest[i] > '9' {
			return 0, false
		}
	}
	return kernelfile.CPUNumber(rest)
}

// identify fills a CPU's identity from /proc/cpuinfo (and, on ARM, from the
// MIDR register sysfs exposes).
func (c *collector) identify(id int) CPU {
	cpu := CPU{ID: id}
	e := c.entries[id]
	if e == nil {
		if c.identifyFromSysfsMIDR(&cpu) {
			return cpu
		}
		if c.haveCPUInfo {
			c.unknownWhy[id] = "not listed in /proc/cpuinfo (offline)"
		} else {
			c.unknownWhy[id] = "/proc/cpuinfo not readable"
		}
		return cpu
	}
	get := func(k string) string { return c.file.Get(e, k) }

	// "Model Name": LoongArch kernels from 6.x capitalise their fields.
	cpu.ModelName = firstNonEmpty(get("model name"), get("Model Name"), nonNumeric(get("Processor")), get("Processor name"))
	if !printableASCII(cpu.ModelName) {
		cpu.ModelName = ""
	}
	if v, ok := parseFloatField(firstNonEmpty(get("BogoMIPS"), get("bogomips"))); ok {
		cpu.BogoMIPS = &v
	}
	if v, ok := parseFloatField(firstNonEmpty(get("cpu MHz"), get("CPU MHz"))); ok {
		cpu.CPUInfoMHz = &v
	}
	cpu.ISA = printable(firstNonEmpty(get("isa"), get("ISA")))
	c.features[id] = cpuFeatures(c.info.Arch, get)

	switch {
	case get("CPU implementer") != "" || get("CPU part") != "":
		c.identifyARM(&cpu, get)
	case get("uarch") != "" || get("mvendorid") != "" || get("hart") != "" || get("mmu") != "":
		c.identifyRISCV(&cpu, get)
	case get("vendor_id") != "":
		c.identifyX86(&cpu, get)
	case get("cpu model") != "":
		cpu.CPUModel = printable(get("cpu model"))
		name, rev := MIPSCoreName(cpu.CPUModel)
		cpu.CoreName, cpu.Core = name, joinRevision(name, rev)
	}
	if cpu.CoreName == "" && cpu.Implementer == "" && cpu.ModelName != "" && !armGenericModel.MatchString(cpu.ModelName) {
		// LoongArch and others name the processor in "model name".
		cpu.CoreName = X86CoreName(cpu.ModelName)
		cpu.Core = cpu.CoreName
	}
	if cpu.CoreName == "" {
		if _, ok := c.unknownWhy[id]; !ok {
			c.unknownWhy[id] = "/proc/cpuinfo names no core"
		}
	}
	return cpu
}

func (c *collector) identifyARM(cpu *CPU, get func(string) string) {
	cpu.Architecture = printable(get("CPU architecture"))
	impl, implOK := firstHex(get("CPU implementer"))
	parts := hexTokens(get("CPU part"))
	variant, varOK := firstHex(get("CPU variant"))
	rev, revOK := firstDecimal(get("CPU revision"))
	if implOK && impl > 0xff {
		implOK = false
	}
	if varOK && variant > 0xf {
		varOK = false
	}
	if revOK && rev > 0xf {
		revOK = false
	}
	if implOK {
		cpu.Implementer = HexCode(impl, 2)
		cpu.Vendor, _ = ImplementerName(impl)
	}
	if varOK {
		cpu.Variant = intPtr(int(variant))
	}
	if revOK {
		cpu.Revision = intPtr(int(rev))
	}
	if len(parts) == 0 || !implOK {
		c.unknownWhy[cpu.ID] = "/proc/cpuinfo has no usable CPU implementer and CPU part"
		return
	}
	cpu.Part = HexCode(parts[0], 3)
	if len(parts) > 1 {
		c.parts[cpu.ID] = parts
		var names []string
		for _, p := range parts {
			if _, n, ok := CoreNameForMIDR(impl, p); ok {
				names = append(names, n)
			} else {
				names = append(names, HexCode(p, 3))
			}
		}
		cpu.CoreName = strings.Join(names, " or ")
		cpu.Core = cpu.CoreName
		return
	}
	c.nameARM(cpu, impl, parts[0], variant, rev, varOK && revOK)
}

// nameARM sets the core name from MIDR fields.
func (c *collector) nameARM(cpu *CPU, impl, part, variant, rev uint64, haveRev bool) {
	var name string
	var ok bool
	if haveRev {
		cpu.Vendor, name, ok = CoreNameForMIDRRevision(impl, part, variant, rev)
	} else {
		cpu.Vendor, name, ok = CoreNameForMIDR(impl, part)
	}
	if !ok {
		c.unknownWhy[cpu.ID] = fmt.Sprintf("MIDR implementer %s part %s is not in boardbench's core table", HexCode(impl, 2), HexCode(part, 3))
		cpu.CoreName, cpu.Core = "", ""
		return
	}
	cpu.CoreName, cpu.Core = name, name
	if haveRev {
		cpu.Core = name + " / " + RevisionString(variant, rev)
	}
}

// identifyFromSysfsMIDR reads cpuN/regs/identification/midr_el1 (arm64).
func (c *collector) identifyFromSysfsMIDR(cpu *CPU) bool {
	switch c.info.Arch {
	case "arm64", "arm", "":
	default:
		return false
	}
	s, err := c.h.ReadString(fmt.Sprintf("%s/cpu%d/regs/identification/midr_el1", sysCPU, cpu.ID))
	if err != nil {
		return false
	}
	v, ok := firstHex(s)
	if !ok || v == 0 {
		return false
	}
	m := DecodeMIDR(v)
	cpu.Implementer, cpu.Part = HexCode(m.Implementer, 2), HexCode(m.Part, 3)
	cpu.Variant, cpu.Revision = intPtr(int(m.Variant)), intPtr(int(m.Revision))
	c.nameARM(cpu, m.Implementer, m.Part, m.Variant, m.Revision, true)
	return true
}

func (c *collector) identifyRISCV(cpu *CPU, get func(string) string) {
	cpu.MMU = printable(get("mmu"))
	cpu.Uarch = printable(get("uarch"))
	cpu.MVendorID = printable(get("mvendorid"))
	cpu.MArchID = printable(get("marchid"))
	cpu.MImpID = printable(get("mimpid"))
	if h, ok := parseIntField(get("hart")); ok && h >= 0 {
		cpu.Hart = &h
	}
	if vendor, name, ok := RISCVCoreName(cpu.Uarch); ok {
		cpu.Vendor, cpu.CoreName, cpu.Core = vendor, name, name
		return
	}
	if v, ok := RISCVVendorName(cpu.MVendorID); ok {
		cpu.Vendor = v
	}
	c.unknownWhy[cpu.ID] = "the kernel prints no uarch line in /proc/cpuinfo"
}

func (c *collector) identifyX86(cpu *CPU, get func(string) string) {
	if v, ok := X86VendorName(get("vendor_id")); ok {
		cpu.Vendor = v
	}
	if v, ok := parseIntField(get("cpu family")); ok {
		cpu.Family = &v
	}
	if v, ok := parseIntField(get("model")); ok {
		cpu.Model = &v
	}
	if v, ok := parseIntField(get("stepping")); ok {
		cpu.Stepping = &v
	}
	if cpu.ModelName != "" {
		cpu.CoreName = X86CoreName(cpu.ModelName)
		cpu.Core = cpu.CoreName
	}
}

// joinRevision formats "name / revision", or name alone.
func joinRevision(name, rev string) string {
	if name == "" || rev == "" {
		return name
	}
	return name + " / " + rev
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

// nonNumeric returns v unless it is a CPU number ("Processor : 0").
func nonNumeric(v string) string {
	if _, ok := kernelfile.CPUNumber(v); ok {
		return ""
	}
	return v
}

// printable returns v when it is printable ASCII, "" otherwise (binary junk
// never reaches the JSON).
func printable(v string) string {
	if !printableASCII(v) {
		return ""
	}
	return v
}

func boolPtr(b bool) *bool              { return &b }
func intPtr(i int) *int                 { return &i }
func floatPtr(f float64) *float64       { return &f }
func int64Ptr(i int64) *int64           { return &i }
func cpuPath(id int, rel string) string { return sysCPU + "/cpu" + strconv.Itoa(id) + "/" + rel }

// readMHz reads a cpufreq kHz file as MHz.
func (c *collector) readMHz(p string) (*float64, error) {
	s, err := c.h.ReadString(p)
	if err != nil {
		return nil, err
	}
	khz, err := ParseKHz(s)
	if err != nil {
		return nil, err
	}
	return floatPtr(KHzToMHz(khz)), nil
}

// cpuByID returns the CPU with id, or nil.
func (c *collector) cpuByID(id int) *CPU {
	if i, ok := slices.BinarySearchFunc(c.info.CPUs, id, func(c CPU, id int) int { return cmp.Compare(c.ID, id) }); ok {
		return &c.info.CPUs[i]
	}
	return nil
}

// basename of a machine path.
func basename(p string) string { return path.Base(p) }
