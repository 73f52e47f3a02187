package mem

import (
	"boardbench/internal/note"
	"boardbench/internal/probe/membw"
	"boardbench/internal/probe/memlat"
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

// Bandwidth holds the bandwidth figures of one measurement, in MB/s
// (10^6 bytes per second): medians, with the sample standard deviation in
// percent of the mean. A figure is nil when its kernel could not run; the
// reason is in the report's notes.
type Bandwidth struct {
	MemcpyMBs          *float64 `json:"memcpy_mb_s"`
	MemcpyStdDevPct    *float64 `json:"memcpy_stddev_pct"`
	MemsetMBs          *float64 `json:"memset_mb_s"`
	MemsetStdDevPct    *float64 `json:"memset_stddev_pct"`
	ReadMBs            *float64 `json:"read_mb_s"`
	ReadStdDevPct      *float64 `json:"read_stddev_pct"`
	WriteMBs           *float64 `json:"write_mb_s"`
	WriteStdDevPct     *float64 `json:"write_stddev_pct"`
	CopyGoMBs          *float64 `json:"copy_go_mb_s"`
	CopyGoStdDevPct    *float64 `json:"copy_go_stddev_pct"`
	NTWriteMBs         *float64 `json:"nt_write_mb_s"`
	NTWriteStdDevPct   *float64 `json:"nt_write_stddev_pct"`
	NTWriteInstruction string   `json:"nt_write_instruction,omitempty"`
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

// slots returns the figure and stddev fields of kernel k.
func (b *Bandwidth) slots(k membw.Kernel) (mbs, sd **float64) {
	switch k {
	case membw.Memcpy:
		return &b.MemcpyMBs, &b.MemcpyStdDevPct
	case membw.Memset:
		return &b.MemsetMBs, &b.MemsetStdDevPct
	case membw.Read:
		return &b.ReadMBs, &b.ReadStdDevPct
	case membw.Write:
		return &b.WriteMBs, &b.WriteStdDevPct
	case membw.CopyGo:
		return &b.CopyGoMBs, &b.CopyGoStdDevPct
	case membw.NTWrite:
		return &b.NTWriteMBs, &b.NTWriteStdDevPct
	}
	return nil, nil
}

// fill stores the figures; unavailable kernels add a note under prefix.
func (b *Bandwidth) fill(figs []membw.Figure, prefix string, notes *note.List) {
	b.Samples = map[string]stats.Summary{}
	b.PassesPerSample = map[string]int{}
	for _, f := range figs {
		mbs, sd := b.slots(f.Kernel)
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
	m, s := b.slots(k)
	if m == nil {
		return nil, nil
	}
	return *m, *s
}
