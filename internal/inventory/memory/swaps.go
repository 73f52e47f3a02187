package memory

import (
	"fmt"
	"path"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
	"boardbench/internal/note"
)

// Swap kinds.
const (
	KindZram      = "zram"
	KindPartition = "partition"
	KindFile      = "file"
)

// Swap is one active swap area of /proc/swaps.
type Swap struct {
	// Path is the swap area as /proc/swaps names it, e.g. "/dev/zram0" or
	// "/swapfile".
	Path string `json:"path"`
	// Kind is "zram", "partition" or "file" (or the kernel's own type word
	// for anything else).
	Kind string `json:"kind"`
	// SizeBytes and UsedBytes are the area's size and use.
	SizeBytes int64 `json:"size_bytes"`
	UsedBytes int64 `json:"used_bytes"`
	// Priority is the swap priority; higher is used first.
	Priority int `json:"priority"`
	// Zram describes the zram device of a zram swap area, nil otherwise.
	Zram *Zram `json:"zram"`
	// FileSystem is the mounted file system holding a swap file, nil for
	// other kinds or when no mount matches.
	FileSystem *FileSystem `json:"file_system"`
	// Device is the block device the area lives on (the partition itself, or
	// the device of the file system holding the file); nil for zram and when
	// unknown.
	Device *BlockDevice `json:"device"`
}

// collectSwaps reads /proc/swaps and finds what each area lives on. It must
// run after collectZram so zram areas can be matched to their devices.
func collectSwaps(h *host.Host, in *Info, mounts mountTable) {
	swaps, err := kernelfile.ReadSwaps(h)
	if err != nil {
		in.Notes.Add("/proc/swaps", note.Unreadable+": "+errText(err))
		return
	}
	in.Swaps = []Swap{}
	for _, e := range swaps {
		s := Swap{Path: e.Path, Kind: e.Type, SizeBytes: e.SizeBytes, UsedBytes: e.UsedBytes, Priority: e.Priority}
		name := path.Base(e.Path)
		switch {
		case strings.HasPrefix(e.Path, "/dev/") && isNumbered(name, "zram"):
			s.Kind = KindZram
			for i := range in.Zram {
				if in.Zram[i].Name == name {
					in.Zram[i].Swap = true
					z := in.Zram[i]
					s.Zram = &z
				}
			}
			if s.Zram == nil {
				in.Notes.Add("swap "+e.Path, "zram device not found in /sys/block")
			}
		case e.Type == KindPartition:
			if dev := deviceByPath(h, e.Path); dev != "" {
				s.Device = describeDevice(h, dev)
			} else {
				in.Notes.Add("swap "+e.Path+" device", note.NotExposed)
			}
		case e.Type == KindFile:
			file := strings.TrimSuffix(e.Path, " (deleted)")
			if mounts.err != nil {
				in.Notes.Add("swap "+e.Path+" file system", note.Unreadable+": "+errText(mounts.err))
				break
			}
			m, ok := mounts.holding(file)
			if !ok {
				in.Notes.Add("swap "+e.Path+" file system", "no mount holds it")
				break
			}
			s.FileSystem = &FileSystem{MountPoint: m.MountPoint, Type: m.FSType, Source: m.Source}
			if dev := deviceOfMount(h, m); dev != "" {
				s.Device = describeDevice(h, dev)
			} else {
				in.Notes.Add("swap "+e.Path+" device", fmt.Sprintf("file system source %q is not a block device", m.Source))
			}
		}
		in.Swaps = append(in.Swaps, s)
	}
}

// FileSystem is the mounted file system that holds a swap file.
type FileSystem struct {
	// MountPoint is where it is mounted, e.g. "/".
	MountPoint string `json:"mount_point"`
	// Type is the file system type, e.g. "ext4".
	Type string `json:"type"`
	// Source is the mount source, e.g. "/dev/mmcblk0p2" or "/dev/root".
	Source string `json:"source"`
}

// warnings turns the collected facts into human sentences.
func warnings(in Info) []string {
	w := []string{}
	zramSwap := ""
	for _, s := range in.Swaps {
		if s.Kind == KindZram && zramSwap == "" {
			zramSwap = s.Path
		}
		if s.Device == nil || !isFlashCard(s.Device.DiskKind) {
			continue
		}
		what := "swap partition " + s.Path
		if s.Kind == KindFile {
			what = "swap file " + s.Path
		}
		w = append(w, fmt.Sprintf("%s is on %s (%s): swapping there is slow and wears the flash out; zram or a swap area on an SSD is the better choice",
			what, diskKindText(s.Device.DiskKind), s.Device.Disk))
	}
	if zramSwap != "" && in.Zswap != nil && in.Zswap.Enabled != nil && *in.Zswap.Enabled {
		w = append(w, fmt.Sprintf("zswap is enabled while swap goes to zram (%s): pages get compressed twice, which costs CPU time and memory; disable zswap or zram swap", zramSwap))
	}
	return w
}

// isFlashCard reports whether a disk kind is an SD card or eMMC (any MMC
// block device), where swapping is slow and wears the flash.
func isFlashCard(kind string) bool {
	return kind == DiskSD || kind == DiskEMMC || kind == DiskMMC
}
