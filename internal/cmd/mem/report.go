package mem

import (
	"boardbench/internal/note"
	"boardbench/internal/probe/membw"
	"boardbench/internal/probe/memlat"
	"boardbench/internal/result"
	"boardbench/internal/stats"
)

// Report is the JSON document of `boardbench mem`.
type Report struct {
	SchemaVersion string      `json:"schema_version"`
	Results       []CPUResult `json:"results"`
	// Total is nil when fewer than two CPUs can be used.
	Total *Total    `json:"total"`
	Notes note.List `json:"notes"`
}

// Bandwidth holds the bandwidth figures of one measurement (the memory
// figures of `boardbench run` share result.MemBandwidth) with their samples.
// A figure is nil when its kernel could not run; the reason is in the
// report's notes.
type Bandwidth struct {
	result.MemBandwidth
	NTWriteInstruction string `json:"nt_write_instruction,omitempty"`
	// Samples has every kernel's samples and spread, keyed by the figure's
	// field name ("memcpy_mb_s", ...).
	Samples map[string]stats.Summary `json:"samples"`
	// PassesPerSample is how many passes over the buffer one sample of each
	// kernel took (per CPU for all-CPU figures), keyed like Samples.
	PassesPerSample map[string]int `json:"passes_per_sample"`
}

// CPUResult is the measurement on one CPU (one per core type).
type CPUResult struct {
	CPU int `json:"cpu"`
	// Core is the core type, "" when unknown.
	Core string `json:"core"`
	// BufferBytes is the size of each bandwidth buffer (source and
	// destination).
	BufferBytes int64 `json:"buffer_bytes"`
	Bandwidth
	// Latency is the latency curve, one entry per block size.
	Latency []memlat.Point `json:"latency"`
	// LineBytes is the slot size of the latency chains.
	LineBytes int `json:"line_bytes"`
	// HugePages reports the huge-page pass; nil when it did not run.
	HugePages *memlat.HugePageCheck `json:"huge_pages"`
	// CacheLevels are the steps found in the latency curve, matched with
	// the sysfs caches.
	CacheLevels []memlat.CacheLevel `json:"cache_levels"`
	// CacheLevelsFrom names the curve the levels come from: "ns_hugepage"
	// (fewer TLB effects) or "ns".
	CacheLevelsFrom string `json:"cache_levels_from"`
	// LatencyStillRising is true when the latency still stepped up at the
	// largest block.
	LatencyStillRising bool `json:"latency_still_rising"`
	// SysfsCaches are the data and unified caches sysfs lists for the CPU.
	SysfsCaches []memlat.SysfsCache `json:"sysfs_caches"`
}

// Total is the bandwidth with every CPU working at once.
type Total struct {
	CPUs []int `json:"cpus"`
	// SliceBytes is each CPU's share of each buffer.
	SliceBytes int64 `json:"slice_bytes"`
	Bandwidth
}

// figureKeys maps kernels to their JSON field names.
var figureKeys = map[membw.Kernel]string{
	membw.Memcpy:  "memcpy_mb_s",
	membw.Memset:  "memset_mb_s",
	membw.Read:    "read_mb_s",
	membw.Write:   "write_mb_s",
	membw.CopyGo:  "copy_go_mb_s",
	membw.NTWrite: "nt_write_mb_s",
}

// fill stores the figures; unavailable kernels add a note under prefix.
func (b *Bandwidth) fill(figs []membw.Figure, prefix string, notes *note.List) {
	b.Samples = map[string]stats.Summary{}
	b.PassesPerSample = map[string]int{}
	for _, f := range figs {
		mbs, sd := b.Slots(string(f.Kernel))
		if mbs == nil {
			continue
		}
		key := figureKeys[f.Kernel]
		if f.MBs == nil {
			reason := f.Note
			if reason == "" {
				reason = "not measured"
			}
			notes.Add(prefix+" "+f.Kernel.Label(), reason)
			continue
		}
		v, s := *f.MBs, f.Summary.RelStdDevPct
		*mbs, *sd = &v, &s
		b.Samples[key] = f.Summary
		b.PassesPerSample[key] = f.PassesPerSample
		if f.Kernel == membw.NTWrite {
			b.NTWriteInstruction = ntInstruction(f.Kernel.Label())
		}
	}
}

// ntInstruction extracts "MOVNTDQ" from "non-temporal write (MOVNTDQ)".
func ntInstruction(label string) string {
	for i := len(label) - 1; i >= 0; i-- {
		if label[i] == '(' {
			return label[i+1 : len(label)-1]
		}
	}
	return ""
}

// figure returns the median and stddev of kernel k, nil when absent.
func (b *Bandwidth) figure(k membw.Kernel) (mbs, sd *float64) {
	m, s := b.Slots(string(k))
	if m == nil {
		return nil, nil
	}
	return *m, *s
}
