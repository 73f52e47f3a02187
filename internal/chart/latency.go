package chart

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"

	"boardbench/internal/result"
)

// The rule for marking a cache level the measurement found: the latency
// curve must show a step there, with a plateau on both sides. The level's
// block and the one before it lie within PlateauRatio of each other; the
// next block is already more than PlateauRatio slower; within
// StepOctaves doublings the curve levels off again (two blocks within
// PlateauRatio) at least StepRatio above the level. A step found in
// noise, or a curve that keeps rising, is not marked.
const (
	PlateauRatio = 1.2
	StepRatio    = 1.5
	StepOctaves  = 3
)

// latencyPlots draws each memory phase's latency against block size on
// log axes, with the cache levels found where the step is clear and the
// caches the kernel reports.
func latencyPlots(ctx context.Context, r *result.Result, board string) ([]named, error) {
	var out []named
	n := 0
	for _, ph := range r.Phases {
		if ph.Name != result.PhaseMemory || len(ph.Figures) == 0 {
			continue
		}
		if err := stopped(ctx); err != nil {
			return nil, err
		}
		var f result.MemFigures
		if json.Unmarshal(ph.Figures, &f) != nil || len(f.Latency) == 0 {
			continue
		}
		ns, huge := latencyCurve(f.Latency, func(r result.LatencyRow) *float64 { return r.NS }), latencyCurve(f.Latency, func(r result.LatencyRow) *float64 { return r.NSHugePage })
		if len(ns) == 0 && len(huge) == 0 {
			continue
		}
		where, name := latencyPlace(f, n)
		title := fmt.Sprintf("Memory latency on %s — %s", where, board)
		fig := lineFigure("block size (log scale)", "latency (ns, log scale)", []line{
			{label: "random read latency", segments: segs(ns)},
			{label: "random read latency, huge pages", segments: segs(huge)},
		})
		fig.x.log, fig.x.base2, fig.x.format = true, true, bytesLabel
		fig.y.log = true
		curve := ns
		if f.CacheLevelsFrom == "ns_hugepage" && len(huge) > 0 || len(ns) == 0 {
			curve = huge
		}
		left := 0
		for i, lvl := range f.CacheLevels {
			if lvl.DetectedBytes <= 0 {
				continue
			}
			if !clearStep(curve, float64(lvl.DetectedBytes)) {
				left++
				continue
			}
			label := fmt.Sprintf("found: level %d", i+1)
			if lvl.SysfsLevel != nil {
				label = fmt.Sprintf("found: L%d", *lvl.SysfsLevel)
			}
			label += fmt.Sprintf(" ≤ %s, %.1f ns", sizeText(lvl.DetectedBytes), lvl.LatencyNS)
			fig.marks = append(fig.marks, mark{X: float64(lvl.DetectedBytes), label: label, kind: markFound})
		}
		if len(fig.marks) > 0 {
			fig.markLegend = append(fig.markLegend, legendItem{label: "cache level found in the curve (a clear step)", kind: "mark-found"})
		}
		if left > 0 {
			fig.notes = append(fig.notes, fmt.Sprintf("%d step%s the measurement reported not marked: no plateau on both sides (see docs/charts.md)", left, plural(left)))
		}
		kernel := kernelCaches(r, f)
		for _, c := range kernel {
			fig.marks = append(fig.marks, mark{X: float64(c.size), label: "kernel: " + c.name + " " + sizeText(c.size), kind: markKernel})
		}
		if len(kernel) > 0 {
			fig.markLegend = append(fig.markLegend, legendItem{label: "cache size the kernel reports (sysfs)", kind: "mark-kernel"})
		}
		zeros := 0
		for _, row := range f.Latency {
			if row.SizeBytes > 0 && row.NS != nil && *row.NS == 0 {
				zeros++
			}
		}
		if zeros > 0 {
			fig.notes = append(fig.notes, fmt.Sprintf("%d block size%s at 0 ns not drawn (a log scale has no 0)", zeros, plural(zeros)))
		}
		n++
		out = append(out, named{name, title, fig})
	}
	return out, nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func segs(ps []pt) [][]pt {
	if len(ps) == 0 {
		return nil
	}
	return [][]pt{ps}
}

// latencyCurve is one latency column against the block size in bytes,
// sorted by size, positive values only.
func latencyCurve(rows []result.LatencyRow, get func(result.LatencyRow) *float64) []pt {
	var out []pt
	for _, r := range rows {
		if v := get(r); r.SizeBytes > 0 && v != nil && finite(*v) && *v > 0 {
			out = append(out, pt{X: float64(r.SizeBytes), Y: *v})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].X < out[j].X })
	return out
}

// clearStep reports whether the curve shows a cache level ending at size
// (the rule above PlateauRatio).
func clearStep(curve []pt, size float64) bool {
	i := -1
	for k, p := range curve {
		if p.X <= size*(1+1e-9) {
			i = k
		}
	}
	if i < 1 || i+1 >= len(curve) || curve[i].X < size/2 {
		return false
	}
	flat := func(a, b float64) bool { return max(a, b) <= min(a, b)*PlateauRatio }
	if !flat(curve[i-1].Y, curve[i].Y) || flat(curve[i].Y, curve[i+1].Y) || curve[i+1].Y < curve[i].Y {
		return false
	}
	for j := i + 1; j+1 < len(curve); j++ {
		if math.Log2(curve[j].X/curve[i].X) > StepOctaves+1e-9 {
			return false
		}
		if flat(curve[j].Y, curve[j+1].Y) {
			return curve[j].Y >= curve[i].Y*StepRatio
		}
	}
	return false
}

type kernelCache struct {
	name string
	size int64
}

// kernelCaches are the data and unified caches the kernel reports for the
// measured CPU: the memory phase's own list, else the result's inventory
// (the caches of that CPU, or every one when the CPU is unknown and the
// sizes agree per level).
func kernelCaches(r *result.Result, f result.MemFigures) []kernelCache {
	var out []kernelCache
	name := func(level int, typ string) string {
		switch strings.ToLower(typ) {
		case "data":
			return fmt.Sprintf("L%dd", level)
		case "instruction":
			return ""
		}
		return fmt.Sprintf("L%d", level)
	}
	for _, c := range f.SysfsCaches {
		if n := name(c.Level, c.Type); n != "" && c.SizeBytes > 0 {
			out = append(out, kernelCache{n, c.SizeBytes})
		}
	}
	if len(out) > 0 || r.Info == nil {
		return out
	}
	seen := map[string]int64{}
	var order []string
	for _, c := range r.Info.CPU.Caches {
		n := name(c.Level, c.Type)
		if n == "" || c.SizeBytes == nil || *c.SizeBytes <= 0 {
			continue
		}
		if f.CPU >= 0 && !containsInt(c.CPUs, f.CPU) {
			continue
		}
		if prev, ok := seen[n]; ok {
			if prev != *c.SizeBytes {
				seen[n] = -1 // sizes differ between core types: not drawn
			}
			continue
		}
		seen[n] = *c.SizeBytes
		order = append(order, n)
	}
	for _, n := range order {
		if seen[n] > 0 {
			out = append(out, kernelCache{n, seen[n]})
		}
	}
	return out
}

func containsInt(xs []int, v int) bool {
	for _, x := range xs {
		if x == v {
			return true
		}
	}
	return false
}

// latencyPlace names where the n-th latency curve was measured, for its
// title ("cpu4 (Cortex-A76)", "the little core (CPU number unknown)",
// "an unknown CPU") and its file name ("memory-latency-cpu4",
// "memory-latency-little-core", "memory-latency-2").
func latencyPlace(f result.MemFigures, n int) (where, name string) {
	core := strings.TrimSpace(f.Core)
	switch {
	case f.CPU >= 0 && core != "":
		return fmt.Sprintf("cpu%d (%s)", f.CPU, core), fmt.Sprintf("memory-latency-cpu%d", f.CPU)
	case f.CPU >= 0:
		return fmt.Sprintf("cpu%d", f.CPU), fmt.Sprintf("memory-latency-cpu%d", f.CPU)
	case core != "":
		return fmt.Sprintf("the %s (CPU number unknown)", core), "memory-latency-" + slug(core)
	}
	return "an unknown CPU", fmt.Sprintf("memory-latency-%d", n+1)
}
