package memory

import (
	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
	"boardbench/internal/note"
)

// Zram is one zram device (a compressed RAM disk, mostly used for swap).
type Zram struct {
	// Name is the kernel name, e.g. "zram0".
	Name string `json:"name"`
	// DiskSizeBytes is the configured (uncompressed) size; 0 for a device
	// that is not set up. Nil when unreadable.
	DiskSizeBytes *int64 `json:"disk_size_bytes"`
	// Algorithm is the selected compression algorithm, e.g. "zstd".
	Algorithm string `json:"algorithm"`
	// Algorithms are the algorithms the kernel offers for it.
	Algorithms []string `json:"algorithms"`
	// OrigDataBytes and ComprDataBytes are the data stored before and after
	// compression; MemUsedBytes is the memory the device uses, overhead
	// included (mm_stat). Nil when mm_stat is unreadable.
	OrigDataBytes  *int64 `json:"orig_data_bytes"`
	ComprDataBytes *int64 `json:"compr_data_bytes"`
	MemUsedBytes   *int64 `json:"mem_used_bytes"`
	// CompressionRatio is OrigDataBytes / ComprDataBytes, nil while nothing
	// is stored.
	CompressionRatio *float64 `json:"compression_ratio"`
	// Swap tells whether the device is an active swap area.
	Swap bool `json:"swap"`
	// MountPoint is where a file system on the device is mounted (e.g.
	// "/var/log"), "" when none is.
	MountPoint string `json:"mount_point"`
}

// Zswap is the configuration of zswap, the compressed cache in front of swap.
type Zswap struct {
	// Enabled is nil when the parameter is unreadable.
	Enabled *bool `json:"enabled"`
	// Compressor is the compression algorithm, e.g. "lz4".
	Compressor string `json:"compressor"`
	// Zpool is the allocator, e.g. "zsmalloc"; "" when the kernel has no
	// such parameter (recent kernels only have zsmalloc).
	Zpool string `json:"zpool"`
	// MaxPoolPct is the share of RAM the pool may take, nil when unreadable.
	MaxPoolPct *int `json:"max_pool_pct"`
}

// collectZram describes every /sys/block/zram* device.
func collectZram(h *host.Host, in *Info, mounts mountTable) {
	names, err := h.ReadDirNames("/sys/block")
	if err != nil {
		in.Notes.Add("/sys/block", note.Unreadable+": "+errText(err))
		return
	}
	for _, name := range names {
		if !isNumbered(name, "zram") {
			continue
		}
		dir := "/sys/block/" + name + "/"
		z := Zram{Name: name, MountPoint: mounts.mountedOn("/dev/" + name)}
		if v, err := h.ReadInt(dir + "disksize"); err == nil && v >= 0 {
			z.DiskSizeBytes = &v
		} else {
			in.Notes.Add(name+" disksize", note.Unreadable)
		}
		if s, err := h.ReadString(dir + "comp_algorithm"); err == nil {
			if c, ok := choiceOf(s); ok {
				z.Algorithm, z.Algorithms = c.Selected, c.Options
			} else {
				in.Notes.Add(name+" comp_algorithm", note.Malformed)
			}
		}
		if s, err := h.ReadString(dir + "mm_stat"); err == nil {
			if st, ok := kernelfile.ParseMMStat(s); ok {
				z.OrigDataBytes, z.ComprDataBytes, z.MemUsedBytes = &st.OrigData, &st.ComprData, &st.MemUsed
				if st.ComprData > 0 {
					r := float64(st.OrigData) / float64(st.ComprData)
					z.CompressionRatio = &r
				}
			} else {
				in.Notes.Add(name+" mm_stat", note.Malformed)
			}
		}
		in.Zram = append(in.Zram, z)
	}
}

// collectZswap reads /sys/module/zswap/parameters.
func collectZswap(h *host.Host, in *Info) {
	const dir = "/sys/module/zswap/parameters/"
	if !h.Exists(dir) {
		in.Notes.Add("zswap", note.NotExposed)
		return
	}
	var z Zswap
	if s, err := h.ReadString(dir + "enabled"); err == nil {
		switch s {
		case "Y", "y", "1":
			t := true
			z.Enabled = &t
		case "N", "n", "0":
			f := false
			z.Enabled = &f
		default:
			in.Notes.Add("zswap enabled", note.Malformed)
		}
	} else {
		in.Notes.Add("zswap enabled", note.Unreadable)
	}
	z.Compressor, _ = h.ReadString(dir + "compressor")
	z.Zpool, _ = h.ReadString(dir + "zpool")
	if v, err := h.ReadInt(dir + "max_pool_percent"); err == nil {
		p := int(v)
		z.MaxPoolPct = &p
	}
	in.Zswap = &z
}
