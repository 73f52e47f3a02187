// Package memory describes a machine's memory: the totals of /proc/meminfo,
// the swap areas and what they live on (zram, a partition or a file, and the
// disk beneath), the zram and zswap setup, transparent huge pages, NUMA nodes
// and vm.swappiness. It also warns about setups that hurt: swap on SD cards
// or eMMC, and zswap stacked on top of zram.
package memory

import (
	"fmt"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
	"boardbench/internal/note"
)

// Info is the Memory section of a machine description.
type Info struct {
	// TotalBytes ... SwapFreeBytes come from /proc/meminfo (MemTotal,
	// MemAvailable, MemFree, Buffers, Cached, SwapTotal, SwapFree); nil when
	// the kernel does not report them.
	TotalBytes     *int64 `json:"total_bytes"`
	AvailableBytes *int64 `json:"available_bytes"`
	FreeBytes      *int64 `json:"free_bytes"`
	BuffersBytes   *int64 `json:"buffers_bytes"`
	CachedBytes    *int64 `json:"cached_bytes"`
	SwapTotalBytes *int64 `json:"swap_total_bytes"`
	SwapFreeBytes  *int64 `json:"swap_free_bytes"`
	// HugePageSizeBytes is /proc/meminfo's Hugepagesize, the size of a
	// (transparent) huge page; nil when the kernel has no huge pages.
	HugePageSizeBytes *int64 `json:"huge_page_size_bytes"`

	// Swappiness is vm.swappiness (0–200), nil when unreadable.
	Swappiness *int `json:"swappiness"`
	// NUMANodes is the number of NUMA nodes, nil when the kernel has no
	// /sys/devices/system/node.
	NUMANodes *int `json:"numa_nodes"`

	// Swaps lists the active swap areas of /proc/swaps in its order; empty
	// when no swap is active, nil when /proc/swaps is unreadable.
	Swaps []Swap `json:"swaps"`
	// Zram lists every zram device, configured or not.
	Zram []Zram `json:"zram"`
	// Zswap is the zswap configuration, nil when the kernel exposes none.
	Zswap *Zswap `json:"zswap"`
	// TransparentHugePages is the THP configuration, nil when not exposed.
	TransparentHugePages *HugePages `json:"transparent_huge_pages"`
	// Controllers are the devfreq devices that scale the memory clock
	// (a DMC): governor and clock when the description was taken.
	Controllers []Controller `json:"memory_controllers,omitempty"`

	// Warnings are human sentences about setups that hurt performance or
	// wear out flash.
	Warnings []string `json:"warnings"`
	// Notes lists what could not be established and why.
	Notes note.List `json:"notes,omitempty"`
}

// Collect describes the memory of the machine behind h. It never fails: what
// cannot be read is listed in Notes.
func Collect(h *host.Host) Info {
	var in Info
	collectMeminfo(h, &in)
	collectTunables(h, &in)
	mounts := readMounts(h)
	collectZram(h, &in, mounts)
	collectZswap(h, &in)
	collectSwaps(h, &in, mounts)
	in.Controllers = collectControllers(h)
	in.Warnings = warnings(in)
	return in
}

// collectMeminfo fills the totals from /proc/meminfo.
func collectMeminfo(h *host.Host, in *Info) {
	data, err := h.ReadFile("/proc/meminfo")
	if err != nil {
		in.Notes.Add("/proc/meminfo", note.Unreadable+": "+errText(err))
		return
	}
	m := kernelfile.ParseMeminfo(data)
	fields := []struct {
		key string
		dst **int64
	}{
		{"MemTotal", &in.TotalBytes},
		{"MemAvailable", &in.AvailableBytes},
		{"MemFree", &in.FreeBytes},
		{"Buffers", &in.BuffersBytes},
		{"Cached", &in.CachedBytes},
		{"SwapTotal", &in.SwapTotalBytes},
		{"SwapFree", &in.SwapFreeBytes},
	}
	for _, f := range fields {
		v, ok := m[f.key]
		if !ok {
			in.Notes.Add("meminfo "+f.key, note.NotExposed)
			continue
		}
		*f.dst = &v
	}
	if v, ok := m["Hugepagesize"]; ok && v > 0 {
		in.HugePageSizeBytes = &v
	}
}

// collectTunables reads vm.swappiness, the NUMA node count and THP.
func collectTunables(h *host.Host, in *Info) {
	if v, err := h.ReadInt("/proc/sys/vm/swappiness"); err == nil {
		s := int(v)
		in.Swappiness = &s
	} else {
		in.Notes.Add("vm.swappiness", note.Unreadable+": "+errText(err))
	}

	if names, err := h.ReadDirNames("/sys/devices/system/node"); err == nil {
		n := 0
		for _, name := range names {
			if isNumbered(name, "node") {
				n++
			}
		}
		in.NUMANodes = &n
	} else {
		in.Notes.Add("NUMA nodes", note.NotExposed)
	}

	var thp HugePages
	const dir = "/sys/kernel/mm/transparent_hugepage/"
	if s, err := h.ReadString(dir + "enabled"); err == nil {
		if c, ok := choiceOf(s); ok {
			thp.Enabled = &c
		}
	}
	if s, err := h.ReadString(dir + "defrag"); err == nil {
		if c, ok := choiceOf(s); ok {
			thp.Defrag = &c
		}
	}
	if thp.Enabled != nil || thp.Defrag != nil {
		in.TransparentHugePages = &thp
	} else {
		in.Notes.Add("transparent huge pages", note.NotExposed)
	}
}

// HugePages is the transparent huge page configuration.
type HugePages struct {
	// Enabled is /sys/kernel/mm/transparent_hugepage/enabled.
	Enabled *Choice `json:"enabled"`
	// Defrag is /sys/kernel/mm/transparent_hugepage/defrag.
	Defrag *Choice `json:"defrag"`
}

// errText shortens an error for a note.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return fmt.Sprint(unwrapPath(err))
}

// AnonHugePagesReader returns a function that reads the system's
// AnonHugePages (bytes) from /proc/meminfo through h each time it is
// called; ok is false when it cannot be read.
func AnonHugePagesReader(h *host.Host) func() (int64, bool) {
	return func() (int64, bool) {
		data, err := h.ReadFile("/proc/meminfo")
		if err != nil {
			return 0, false
		}
		return MeminfoField(data, "AnonHugePages")
	}
}
