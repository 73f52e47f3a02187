package cpu

import (
	"fmt"

	"boardbench/internal/note"
)

// groupedNotes collects notes that apply to many CPUs or policies and writes
// one note per (what, reason) pair naming all of them, so that a 128-core
// server does not yield 128 identical notes.
type groupedNotes struct {
	order []groupedKey
	ids   map[groupedKey][]int
}

type groupedKey struct{ what, unit, reason string }

// add records that what is missing for CPU or policy id (unit "cpu" or
// "policy") for reason.
func (g *groupedNotes) add(what, unit, reason string, id int) {
	if g.ids == nil {
		g.ids = map[groupedKey][]int{}
	}
	k := groupedKey{what, unit, reason}
	if _, ok := g.ids[k]; !ok {
		g.order = append(g.order, k)
	}
	g.ids[k] = append(g.ids[k], id)
}

// flush appends the collected notes to l, e.g. item "core type (cpu 4-7)".
func (g *groupedNotes) flush(l *note.List) {
	for _, k := range g.order {
		l.Add(fmt.Sprintf("%s (%s %s)", k.what, k.unit, FormatCPUList(g.ids[k])), k.reason)
	}
}
