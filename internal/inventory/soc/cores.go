package soc

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"boardbench/internal/inventory/cpu"
)

//go:generate go run ./gen -in ../../../../shared/data/arm-socs-table/socs.yml -out socs_table.go

// knownSoC is one SoC of the generated table: its vendor, name, core types
// and the CPU feature flags it reports.
type knownSoC struct {
	Vendor, Name string
	Cores        []coreID
	// Features is the space-separated feature list of /proc/cpuinfo.
	Features string
}

// coreID identifies a core type by its MIDR fields.
type coreID struct {
	Implementer, Part, Variant, Revision int
}

// fullName is "Vendor Name", without repeating a vendor the name already has.
func (k knownSoC) fullName() string {
	if strings.HasPrefix(k.Name, k.Vendor) {
		return k.Name
	}
	return k.Vendor + " " + k.Name
}

// coreType is one kind of core of the machine and how many CPUs have it.
type coreType struct {
	Implementer, Part int
	Name              string
	Count             int
	// Revisions holds the (variant, revision) pairs seen; empty when
	// /proc/cpuinfo did not print them.
	Revisions map[[2]int]bool
}

// machineCoreTypes groups the machine's CPUs by MIDR implementer and part,
// from the cpu section, completed (or replaced, when the cpu section has no
// MIDR fields) by /proc/cpuinfo. Types are ordered by first CPU id.
func machineCoreTypes(c cpu.Info, ci cpuinfoFacts) []coreType {
	var out []coreType
	index := map[[2]int]int{}
	add := func(impl, part int, name string, id int) {
		key := [2]int{impl, part}
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			out = append(out, coreType{Implementer: impl, Part: part, Name: name, Revisions: map[[2]int]bool{}})
		}
		out[i].Count++
		if out[i].Name == "" {
			out[i].Name = name
		}
		if m, ok := ci.Cores[id]; ok && m.HasVariant && m.Implementer == impl && m.Part == part {
			out[i].Revisions[[2]int{m.Variant, m.Revision}] = true
		}
	}
	for _, p := range c.CPUs {
		impl, ok1 := hexField(p.Implementer)
		part, ok2 := hexField(p.Part)
		if ok1 && ok2 {
			add(impl, part, p.CoreName, p.ID)
		}
	}
	if len(out) == 0 {
		for _, id := range slices.Sorted(maps.Keys(ci.Cores)) {
			m := ci.Cores[id]
			add(m.Implementer, m.Part, "", id)
		}
	}
	return out
}

// describeCores renders core types as "4× Cortex-A55 + 4× Cortex-A76".
func describeCores(types []coreType) string {
	parts := make([]string, len(types))
	for i, t := range types {
		name := t.Name
		if name == "" {
			name = fmt.Sprintf("core 0x%02x/0x%03x", t.Implementer, t.Part)
		}
		parts[i] = fmt.Sprintf("%d× %s", t.Count, name)
	}
	return strings.Join(parts, " + ")
}

// coreMatch is the outcome of comparing a machine's cores with the table.
type coreMatch struct {
	// Best are the candidates that match best; All every candidate, best
	// first.
	Best, All []string
	// ByFeatures tells whether the best candidates also agree with the
	// machine on crypto extensions.
	ByFeatures bool
	// ByCounts tells whether the best candidates have the machine's core
	// counts.
	ByCounts bool
	// SameRevisions lists the candidates whose listed core revisions
	// equal the machine's. The table records one sample per SoC, so this
	// orders candidates but never excludes one.
	SameRevisions []string
}

// matchCoreCombination finds the SoCs whose set of core types equals the
// machine's, from the generated table and boardbench's own (socfacts.go).
// A SoC whose core counts are known and smaller than the machine's is left
// out (a kernel may hide offline CPUs, never add some). Real chips rank
// before the table's QEMU CPU models; then SoCs whose core counts equal the
// machine's; then candidates whose crypto extensions (the "aes" feature)
// do not contradict the machine's (boardbench's own table records them
// for a few SoCs only); among equals, those whose recorded core
// revisions match. A non-empty vendor restricts the candidates to that
// vendor.
//
// span is the number of CPUs the machine has at least (highest CPU number
// plus one); when it exceeds the CPUs whose core type is known, some are
// hidden (offline): no count is exact then, a SoC with more core types
// than the machine shows fits as well, and a SoC with fewer cores in all
// than span is left out. only, when not nil, keeps only the SoCs it
// accepts (the members of a family the Hardware line names).
func matchCoreCombination(types []coreType, span int, features []string, vendor string, only func(vendor, name string) bool, table []knownSoC) coreMatch {
	var m coreMatch
	if len(types) == 0 {
		return m
	}
	shown := 0
	for _, t := range types {
		shown += t.Count
	}
	hidden := span > shown
	// features == nil: /proc/cpuinfo printed no Features line.
	knownAES, machineAES := features != nil, slices.Contains(features, "aes")
	type scored struct {
		name              string
		rev, qemu, counts bool
		// feats is false when the SoC's crypto extensions are known
		// and differ from the machine's.
		feats bool
	}
	var cands []scored
	consider := func(k knownSoC, counts []coreCount, aes int8) {
		if vendor != "" && !strings.EqualFold(k.Vendor, vendor) {
			return
		}
		if only != nil && !only(k.Vendor, k.Name) {
			return
		}
		if !sameCoreSet(types, k.Cores) && !(hidden && coreSuperset(types, k.Cores)) {
			return
		}
		exact, fits := countsFit(types, counts)
		if !fits || (counts != nil && totalCores(counts) < span) {
			return
		}
		exact = exact && !hidden
		s := scored{name: k.fullName(), rev: revisionsMatch(types, k.Cores), qemu: k.Vendor == "QEMU", counts: exact, feats: true}
		if knownAES && aes != 0 {
			s.feats = (aes > 0) == machineAES
		}
		cands = append(cands, s)
	}
	for _, k := range table {
		aes := int8(-1)
		if slices.Contains(strings.Fields(k.Features), "aes") {
			aes = 1
		}
		consider(k, factCores(k.Vendor, k.Name), aes)
	}
	for i := range socFacts {
		f := &socFacts[i]
		if inTable(table, f.Vendor, f.Name) {
			continue
		}
		k := knownSoC{Vendor: f.Vendor, Name: f.Name, Cores: make([]coreID, len(f.Cores))}
		for j, c := range f.Cores {
			k.Cores[j] = coreID{Implementer: c.Implementer, Part: c.Part, Variant: -1, Revision: -1}
		}
		consider(k, f.Cores, f.AES)
	}
	if len(cands) == 0 {
		return m
	}
	// Real chips before QEMU's emulated CPU models, then equal core
	// counts, then agreement on crypto extensions, then matching recorded
	// revisions.
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].qemu != cands[j].qemu {
			return !cands[i].qemu
		}
		if cands[i].counts != cands[j].counts {
			return cands[i].counts
		}
		if cands[i].feats != cands[j].feats {
			return cands[i].feats
		}
		return cands[i].rev && !cands[j].rev
	})
	seen := map[string]bool{}
	top := cands[0]
	for _, c := range cands {
		if seen[c.name] {
			continue
		}
		seen[c.name] = true
		m.All = append(m.All, c.name)
		if c.feats == top.feats && c.qemu == top.qemu && c.counts == top.counts {
			m.Best = append(m.Best, c.name)
		}
		if c.rev {
			m.SameRevisions = append(m.SameRevisions, c.name)
		}
	}
	m.ByFeatures = knownAES && top.feats
	m.ByCounts = top.counts
	return m
}

// countsFit compares the machine's core counts with a SoC's: exact when
// every type has the SoC's count; fits unless the machine has more cores
// of a type than the SoC. Without counts (nil) the SoC fits, not exactly.
func countsFit(types []coreType, counts []coreCount) (exact, fits bool) {
	if counts == nil {
		return false, true
	}
	exact = true
	for _, t := range types {
		n := 0
		for _, c := range counts {
			if c.Implementer == t.Implementer && c.Part == t.Part {
				n = c.Count
			}
		}
		if t.Count > n {
			return false, false
		}
		exact = exact && t.Count == n
	}
	return exact, true
}

// coreSuperset reports whether a table entry has every core type of the
// machine (and maybe more).
func coreSuperset(types []coreType, cores []coreID) bool {
	for _, t := range types {
		if !slices.ContainsFunc(cores, func(c coreID) bool { return c.Implementer == t.Implementer && c.Part == t.Part }) {
			return false
		}
	}
	return true
}

// totalCores adds up a SoC's cores.
func totalCores(counts []coreCount) int {
	n := 0
	for _, c := range counts {
		n += c.Count
	}
	return n
}

// cpuSpan is the highest CPU number the machine shows, plus one: the
// number of CPUs it has at least.
func cpuSpan(c cpu.Info, ci cpuinfoFacts) int {
	span := 0
	for _, p := range c.CPUs {
		span = max(span, p.ID+1)
	}
	for id := range ci.Cores {
		span = max(span, id+1)
	}
	return span
}

// inTable reports whether the generated table has a SoC of that vendor and
// name.
func inTable(table []knownSoC, vendor, name string) bool {
	for i := range table {
		if table[i].Vendor == vendor && table[i].Name == name {
			return true
		}
	}
	return false
}

// sameCoreSet reports whether the machine's core types (implementer, part)
// are exactly those of a table entry.
func sameCoreSet(types []coreType, cores []coreID) bool {
	want := map[[2]int]bool{}
	for _, c := range cores {
		want[[2]int{c.Implementer, c.Part}] = true
	}
	if len(want) != len(types) {
		return false
	}
	for _, t := range types {
		if !want[[2]int{t.Implementer, t.Part}] {
			return false
		}
	}
	return true
}

// revisionsMatch reports whether every (variant, revision) the machine
// shows for a core type is the one the table lists; false when the machine
// printed none.
func revisionsMatch(types []coreType, cores []coreID) bool {
	have := map[coreID]bool{}
	for _, c := range cores {
		have[c] = true
	}
	any := false
	for _, t := range types {
		for vr := range t.Revisions {
			any = true
			if !have[coreID{t.Implementer, t.Part, vr[0], vr[1]}] {
				return false
			}
		}
	}
	return any
}
