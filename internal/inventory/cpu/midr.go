package cpu

import "fmt"

//go:generate go run ./gen -in ../../../../shared/data/arm-socs-table/cpu_cores.yml -out midr_table.go

// anyField in a midrKey matches every variant or revision.
const anyField = -1

// midrKey identifies a core in the MIDR tables.
type midrKey struct {
	implementer, part uint64
	variant, revision int
}

// The MIDR tables are slices of structs with constant fields, static data
// that costs nothing when boardbench starts (a map literal is built at
// init); a lookup scans them, a few hundred entries at most.

// midrImplementer names an implementer code.
type midrImplementer struct {
	code uint64
	name string
}

// midrPart names the core of a midrKey.
type midrPart struct {
	implementer, part uint64
	variant, revision int
	name              string
}

// implementerIn returns the name of code in table.
func implementerIn(table []midrImplementer, code uint64) (string, bool) {
	for _, e := range table {
		if e.code == code {
			return e.name, true
		}
	}
	return "", false
}

// partIn returns the name of the core of k in table.
func partIn(table []midrPart, k midrKey) (string, bool) {
	for _, e := range table {
		if (midrKey{e.implementer, e.part, e.variant, e.revision}) == k {
			return e.name, true
		}
	}
	return "", false
}

// MIDR holds the fields of an ARM Main ID Register (MIDR_EL1).
type MIDR struct {
	// Implementer is bits 31:24, e.g. 0x41 for ARM.
	Implementer uint64
	// Variant is bits 23:20, the major revision ("r" of "r4p0").
	Variant uint64
	// Architecture is bits 19:16 (0xf: see the ID registers).
	Architecture uint64
	// Part is bits 15:4, the core's part number, e.g. 0xd0b.
	Part uint64
	// Revision is bits 3:0, the minor revision ("p" of "r4p0").
	Revision uint64
}

// DecodeMIDR splits a MIDR_EL1 value (as in
// /sys/devices/system/cpu/cpuN/regs/identification/midr_el1) into its fields.
func DecodeMIDR(v uint64) MIDR {
	return MIDR{
		Implementer:  (v >> 24) & 0xff,
		Variant:      (v >> 20) & 0xf,
		Architecture: (v >> 16) & 0xf,
		Part:         (v >> 4) & 0xfff,
		Revision:     v & 0xf,
	}
}

// ImplementerName returns the company behind a MIDR implementer code, e.g.
// 0x41 → "ARM", 0x51 → "Qualcomm".
func ImplementerName(implementer uint64) (string, bool) {
	if n, ok := implementerIn(extraImplementers, implementer); ok {
		return n, true
	}
	return implementerIn(tableImplementers, implementer)
}

// CoreNameForMIDR names the core an ARM implementer and part code stand for,
// e.g. (0x41, 0xd0b) → ("ARM", "Cortex-A76"). vendor is set whenever the
// implementer is known, even when the part is not; ok reports whether the
// core was named.
func CoreNameForMIDR(implementer, part uint64) (vendor, name string, ok bool) {
	vendor, _ = ImplementerName(implementer)
	name, ok = lookupPart(midrKey{implementer, part, anyField, anyField})
	return vendor, name, ok
}

// CoreNameForMIDRRevision is CoreNameForMIDR for a known variant and
// revision: a few parts name different cores by them (Qualcomm Krait 200 to
// 450 are all part 0x06f, Samsung's Exynos M1 and M2 share part 0x001).
func CoreNameForMIDRRevision(implementer, part, variant, revision uint64) (vendor, name string, ok bool) {
	vendor, _ = ImplementerName(implementer)
	if variant <= 0xf && revision <= 0xf {
		if name, ok = lookupPart(midrKey{implementer, part, int(variant), int(revision)}); ok {
			return vendor, name, true
		}
	}
	name, ok = lookupPart(midrKey{implementer, part, anyField, anyField})
	return vendor, name, ok
}

// lookupPart prefers the hand-kept table (corrections and cores missing from
// the generated one) over the generated table.
func lookupPart(k midrKey) (string, bool) {
	if n, ok := partIn(extraParts, k); ok {
		return n, true
	}
	return partIn(tableParts, k)
}

// RevisionString formats an ARM variant and revision as "r4p0".
func RevisionString(variant, revision uint64) string {
	return fmt.Sprintf("r%dp%d", variant, revision)
}

// HexCode formats a MIDR field as cpuinfo does: "0x41", "0xd0b" (at least
// two hex digits for implementers, three for parts).
func HexCode(v uint64, digits int) string {
	return fmt.Sprintf("0x%0*x", digits, v)
}
