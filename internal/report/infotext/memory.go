package infotext

import (
	"fmt"
	"strconv"
	"strings"

	"boardbench/internal/inventory"
	"boardbench/internal/inventory/memory"
	"boardbench/internal/textfmt"
)

// renderMemory writes the Memory section: totals, swap areas and what they
// live on, zram and zswap, huge pages, warnings and what is unknown.
func renderMemory(w *textfmt.Writer, in *inventory.Info) {
	m := in.Memory
	w.Section("Memory")
	swap := ""
	if m.SwapTotalBytes != nil && m.SwapFreeBytes != nil {
		swap = textfmt.Bytes(*m.SwapTotalBytes) + " total, " + textfmt.Bytes(*m.SwapFreeBytes) + " free"
	}
	w.KV(
		[2]string{"total", memBytes(m.TotalBytes)},
		[2]string{"available", memBytes(m.AvailableBytes)},
		[2]string{"free", memBytes(m.FreeBytes)},
		[2]string{"buffers", memBytes(m.BuffersBytes)},
		[2]string{"cached", memBytes(m.CachedBytes)},
		[2]string{"swap", swap},
		[2]string{"swappiness", memInt(m.Swappiness)},
		[2]string{"NUMA nodes", memInt(m.NUMANodes)},
		[2]string{"transparent huge pages", memHugePages(m.TransparentHugePages)},
		[2]string{"zswap", memZswap(m.Zswap)},
	)

	if m.Swaps != nil {
		if len(m.Swaps) == 0 {
			w.Line("Swap areas: none active")
		} else {
			w.Line("Swap areas:")
			t := textfmt.NewTable("AREA", "KIND", "SIZE", "USED", "PRIORITY", "LIVES ON")
			t.Wrap[5] = true
			t.RightAlign[2], t.RightAlign[3], t.RightAlign[4] = true, true, true
			for _, s := range m.Swaps {
				t.Row(s.Path, s.Kind, textfmt.Bytes(s.SizeBytes), textfmt.Bytes(s.UsedBytes), strconv.Itoa(s.Priority), memSwapPlace(s))
			}
			w.Table(t)
		}
	}

	if len(m.Zram) > 0 {
		w.Line("zram devices:")
		t := textfmt.NewTable("DEVICE", "SIZE", "ALGORITHM", "STORED", "COMPRESSED", "RATIO", "USED FOR")
		t.RightAlign[1], t.RightAlign[3], t.RightAlign[4], t.RightAlign[5] = true, true, true, true
		for _, z := range m.Zram {
			size := memBytes(z.DiskSizeBytes)
			if z.DiskSizeBytes != nil && *z.DiskSizeBytes == 0 {
				size = "not set up"
			}
			ratio := "-"
			if z.CompressionRatio != nil {
				ratio = fmt.Sprintf("%.1f:1", *z.CompressionRatio)
			}
			var use []string
			if z.Swap {
				use = append(use, "swap")
			}
			if z.MountPoint != "" {
				use = append(use, "mounted on "+z.MountPoint)
			}
			if len(use) == 0 {
				use = append(use, "unused")
			}
			t.Row(z.Name, size, textfmt.OrUnknown(z.Algorithm), memBytes(z.OrigDataBytes), memBytes(z.ComprDataBytes), ratio, strings.Join(use, ", "))
		}
		w.Table(t)
	}

	for _, s := range m.Warnings {
		w.Line("warning: %s", s)
	}
	for _, n := range m.Notes {
		w.Line("unknown: %s (%s)", n.Item, n.Reason)
	}
}

// memBytes formats an optional size, "unknown" when nil.
func memBytes(v *int64) string {
	if v == nil {
		return "unknown"
	}
	return textfmt.Bytes(*v)
}

// memInt formats an optional integer, "unknown" when nil.
func memInt(v *int) string {
	if v == nil {
		return "unknown"
	}
	return strconv.Itoa(*v)
}

// memHugePages formats the THP setting, e.g. "madvise (defrag: madvise)".
func memHugePages(t *memory.HugePages) string {
	if t == nil {
		return "not exposed"
	}
	s := "unknown"
	if t.Enabled != nil {
		s = t.Enabled.Selected
	}
	if t.Defrag != nil {
		s += " (defrag: " + t.Defrag.Selected + ")"
	}
	return s
}

// memZswap formats the zswap setting, e.g. "enabled, lz4 / z3fold, pool
// up to 20 % of RAM".
func memZswap(z *memory.Zswap) string {
	switch {
	case z == nil:
		return "not available in this kernel"
	case z.Enabled == nil:
		return "unknown"
	case !*z.Enabled:
		return "disabled"
	}
	s := "enabled"
	if z.Compressor != "" {
		s += ", " + z.Compressor
		if z.Zpool != "" {
			s += " / " + z.Zpool
		}
	}
	if z.MaxPoolPct != nil {
		s += fmt.Sprintf(", pool up to %d %% of RAM", *z.MaxPoolPct)
	}
	return s
}

// memSwapPlace says where a swap area lives: its zram algorithm, or the
// device and disk beneath.
func memSwapPlace(s memory.Swap) string {
	if s.Zram != nil {
		out := "RAM, " + textfmt.OrUnknown(s.Zram.Algorithm) + " compressed"
		if s.Zram.CompressionRatio != nil {
			out += fmt.Sprintf(" %.1f:1", *s.Zram.CompressionRatio)
		}
		return out
	}
	var parts []string
	if d := s.Device; d != nil {
		dev := d.Name
		if len(d.Via) > 0 && d.Disk != d.Name {
			dev += " on " + d.Disk
		} else if d.Disk != "" && d.Disk != d.Name {
			dev += " of " + d.Disk
		}
		parts = append(parts, dev+" ("+memDiskKind(d.DiskKind)+")")
	}
	if fs := s.FileSystem; fs != nil {
		parts = append(parts, fs.Type+" on "+fs.MountPoint)
	}
	if len(parts) == 0 {
		return "unknown"
	}
	return strings.Join(parts, ", ")
}

// memDiskKind names a disk kind for the text view.
func memDiskKind(kind string) string {
	switch kind {
	case memory.DiskSD:
		return "SD card"
	case memory.DiskEMMC:
		return "eMMC"
	case memory.DiskMMC:
		return "SD card or eMMC"
	case memory.DiskNVMe:
		return "NVMe"
	case memory.DiskUSB:
		return "USB"
	case memory.DiskSATA:
		return "SATA"
	case memory.DiskSCSI:
		return "SCSI"
	case memory.DiskVirtio:
		return "virtio"
	case memory.DiskDM:
		return "device mapper"
	case memory.DiskMD:
		return "software RAID"
	case "", memory.DiskUnknown:
		return "unknown disk"
	}
	return kind
}
