package soc

import (
	"strconv"
	"strings"

	"boardbench/internal/kernelfile"
)

// cpuinfoFacts is what /proc/cpuinfo says that matters for the board and SoC.
type cpuinfoFacts struct {
	// Hardware, Revision and Model are the machine-wide lines of ARM
	// kernels ("Hardware : BCM2835", "Revision : c03114",
	// "Model : Raspberry Pi 4 Model B Rev 1.4").
	Hardware, Revision, Model string
	// ModelName and VendorID are the first "model name" (LoongArch on
	// kernel 6.x: "Model Name") and "vendor_id" lines (x86, LoongArch,
	// some ARM and RISC-V kernels).
	ModelName, VendorID string
	// SystemType and Machine are the MIPS "system type" (often the chip)
	// and "machine" (a device-tree compatible string) lines.
	SystemType, Machine string
	// Uarch, MVendorID and MArchID are the first RISC-V "uarch",
	// "mvendorid" and "marchid" lines.
	Uarch, MVendorID, MArchID string
	// Features is the first "Features" (ARM) line split into words.
	Features []string
	// Cores has the MIDR fields of each "processor" block that has them.
	Cores map[int]midr
	// Harts is the number of CPU records (RISC-V harts).
	Harts int
}

// firstOf returns the value of the first of keys that is set.
func firstOf(m map[string]string, keys ...string) string {
	for _, k := range keys {
		if v, ok := m[k]; ok {
			return v
		}
	}
	return ""
}

// midr holds the MIDR fields /proc/cpuinfo prints per processor on ARM.
type midr struct {
	Implementer, Part, Variant, Revision int
	// HasVariant is false when the block lacks variant or revision.
	HasVariant bool
}

// parseCPUInfo takes the facts from /proc/cpuinfo text as
// kernelfile.ParseCPUInfo splits it. The machine-wide lines are the first of
// their key anywhere in the file. A CPU record's MIDR comes from its own
// lines; the MIDR lines old kernels print once after the records (for the
// CPU that read the file) count for the last record only, so that the core
// types found without the cpu section show what the file shows and no more.
func parseCPUInfo(text string) cpuinfoFacts {
	f := kernelfile.ParseCPUInfo([]byte(text))
	ci := cpuinfoFacts{
		Hardware:   f.First["Hardware"],
		Revision:   f.First["Revision"],
		Model:      f.First["Model"],
		ModelName:  firstOf(f.First, "model name", "Model Name"),
		VendorID:   f.First["vendor_id"],
		SystemType: f.First["system type"],
		Machine:    f.First["machine"],
		Uarch:      f.First["uarch"],
		MVendorID:  f.First["mvendorid"],
		MArchID:    f.First["marchid"],
		Harts:      len(f.Entries),
		Cores:      map[int]midr{},
	}
	if v, ok := f.First["Features"]; ok {
		ci.Features = strings.Fields(v)
	}
	for i, e := range f.Entries {
		if m, ok := midrOf(e.Fields); ok {
			ci.Cores[e.ID] = m
		} else if i == len(f.Entries)-1 && !f.Synthesized {
			if m, ok := midrOf(f.Global); ok {
				ci.Cores[e.ID] = m
			}
		}
	}
	return ci
}

// midrOf reads the MIDR fields of one block of /proc/cpuinfo; ok is false
// unless both implementer and part are there.
func midrOf(fields map[string]string) (midr, bool) {
	num := func(k string) (int, bool) {
		v, ok := fields[k]
		if !ok {
			return 0, false
		}
		n, err := strconv.ParseInt(v, 0, 32)
		return int(n), err == nil && n >= 0
	}
	impl, ok1 := num("CPU implementer")
	part, ok2 := num("CPU part")
	if !ok1 || !ok2 {
		return midr{}, false
	}
	variant, ok3 := num("CPU variant")
	rev, ok4 := num("CPU revision")
	m := midr{Implementer: impl, Part: part, HasVariant: ok3 && ok4}
	if m.HasVariant {
		m.Variant, m.Revision = variant, rev
	}
	return m, true
}

// hexField parses a MIDR field printed as hex ("0x41", "0xd0b").
func hexField(s string) (int, bool) {
	t := strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(s), "0x"), "0X")
	if t == "" {
		return 0, false
	}
	n, err := strconv.ParseUint(t, 16, 32)
	if err != nil {
		return 0, false
	}
	return int(n), true
}
