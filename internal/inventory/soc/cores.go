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
	// SameRevisions lists the candidates whose listed core revisions
	// equal the machine's. The table records one sample per SoC, so this
	// orders candidates but never excludes one.
	SameRevisions []string
}

// matchCoreCombination finds the SoCs whose set of core types equals the
// machine's. Real chips rank before the table's QEMU CPU models; then
// candidates whose crypto extensions (the "aes" feature) agree with the
// machine's; among equals, those whose recorded core revisions match. A non-empty vendor restricts the candidates to
// that vendor.
func matchCoreCombination(types []coreType, features []string, vendor string, table []knownSoC) coreMatch {
	var m coreMatch
	if len(types) == 0 {
		return m
	}
	// features == nil: /proc/cpuinfo printed no Features line.
	knownAES, machineAES := features != nil, slices.Contains(features, "aes")
	type scored struct {
		name             string
		rev, feats, qemu bool
	}
	var cands []scored
	for _, k := range table {
		if vendor != "" && !strings.EqualFold(k.Vendor, vendor) {
			continue
		}
		if !sameCoreSet(types, k.Cores) {
			continue
		}
		s := scored{name: k.fullName(), rev: revisionsMatch(types, k.Cores), qemu: k.Vendor == "QEMU"}
		if knownAES {
			s.feats = slices.Contains(strings.Fields(k.Features), "aes") == machineAES
		}
		cands = append(cands, s)
	}
	if len(cands) == 0 {
		return m
	}
	// Real chips before QEMU's emulated CPU models, then agreement on
	// crypto extensions, then matching recorded revisions.
	sort.SliceStable(cands, func(i, j int) bool {
		if cands[i].qemu != cands[j].qemu {
			return !cands[i].qemu
		}
		if cands[i].feats != cands[j].feats {
			return cands[i].feats
		}
		return cands[i].rev && !cands[j].rev
	})
	seen := map[string]bool{}
	for _, c := range cands {
		if seen[c.name] {
			continue
		}
		seen[c.name] = true
		m.All = append(m.All, c.name)
		if c.feats == cands[0].feats && c.qemu == cands[0].qemu {
			m.Best = append(m.Best, c.name)
		}
		if c.rev {
			m.SameRevisions = append(m.SameRevisions, c.name)
		}
	}
	m.ByFeatures = cands[0].feats
	return m
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
