// Package writewatch watches what is written to a block device: the
// device's completed write requests and sectors from /sys/class/block/NAME/stat,
// and the processes that caused writes from /proc/PID/io (write_bytes,
// readable as root), interval by interval. Since write_bytes is counted over
// all devices, a process is the device's writer only while it holds a file
// open for writing there (see Devices.Attribute). It also gives the advice that
// reduces writes to flash, each with its evidence and its cost.
package writewatch

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"boardbench/internal/blockdev"
	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
	"boardbench/internal/result"
)

// DiskStat is the part of a block device's stat file the watch uses.
type DiskStat = kernelfile.BlockStat

// ReadStat reads the stat file of the block device name (a whole device or
// a partition).
func ReadStat(h *host.Host, name string) (DiskStat, error) {
	return kernelfile.ReadBlockStat(h, name)
}

// proc is one process's cumulative writes.
type proc struct {
	comm  string
	bytes uint64
}

// processes reads write_bytes of every process it may read.
func processes(h *host.Host) map[int]proc {
	out := map[int]proc{}
	names, err := h.ReadDirNames("/proc")
	if err != nil {
		return out
	}
	for _, n := range names {
		pid, err := strconv.Atoi(n)
		if err != nil || pid <= 0 {
			continue
		}
		s, err := h.ReadString("/proc/" + n + "/io")
		if err != nil {
			continue
		}
		b, ok := kernelfile.ParsePIDIO(s)
		if !ok {
			continue
		}
		comm, _ := h.ReadString("/proc/" + n + "/comm")
		out[pid] = proc{comm: strings.TrimSpace(comm), bytes: b}
	}
	return out
}

// writersBetween returns the processes whose write_bytes grew, largest first.
func writersBetween(before, after map[int]proc) []result.Writer {
	var out []result.Writer
	for pid, a := range after {
		b, ok := before[pid]
		if !ok || a.comm != b.comm || a.bytes <= b.bytes {
			continue
		}
		out = append(out, result.Writer{PID: pid, Comm: a.comm, KiB: float64(a.bytes-b.bytes) / 1024})
	}
	slices.SortFunc(out, func(x, y result.Writer) int {
		return cmp.Or(cmp.Compare(y.KiB, x.KiB), cmp.Compare(x.PID, y.PID))
	})
	return out
}

// Config is one watch.
type Config struct {
	// Device is the block device name under /sys/class/block.
	Device string
	// Interval is the polling interval (default 1 s).
	Interval time.Duration
	// Count stops after this many lines (0: until ctx is done).
	Count int
	// OnLine is called with each line as it happens.
	OnLine func(result.WritesLine)
	// Now returns the time; nil means time.Now.
	Now func() time.Time
	// Devices are the devices whose writers are the watched device's;
	// nil means DevicesOf(Device).
	Devices *Devices
}

// Watch polls until ctx is done or Count lines were seen and returns the
// figures (without advice: see Advise).
func Watch(ctx context.Context, h *host.Host, cfg Config) (result.WritesFigures, error) {
	if cfg.Interval <= 0 {
		cfg.Interval = time.Second
	}
	now := cfg.Now
	if now == nil {
		now = time.Now
	}
	figs := result.WritesFigures{Device: cfg.Device, IntervalS: cfg.Interval.Seconds(), Lines: []result.WritesLine{}, TopWriters: []result.Writer{}}
	last, err := ReadStat(h, cfg.Device)
	if err != nil {
		return figs, fmt.Errorf("%s: %w", cfg.Device, err)
	}
	devs := cfg.Devices
	if devs == nil {
		devs = DevicesOf(ctx, h, cfg.Device)
	}
	figs.AttributedDevices = devs.Names
	start := now()
	lastLine := start
	procs := processes(h)
	totals, otherTotals := map[int]result.Writer{}, map[int]result.Writer{}
	tick := time.NewTicker(cfg.Interval)
	defer tick.Stop()
	for cfg.Count == 0 || figs.Events < cfg.Count {
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
		if ctx.Err() != nil {
			break
		}
		cur, err := ReadStat(h, cfg.Device)
		if err != nil {
			return figs, fmt.Errorf("%s: %w", cfg.Device, err)
		}
		nowProcs := processes(h)
		writers, unknown := devs.split(h, writersBetween(procs, nowProcs))
		procs = nowProcs
		addUp(totals, writers)
		addUp(otherTotals, unknown)
		if cur.Writes <= last.Writes && cur.Sectors <= last.Sectors {
			continue
		}
		t := now()
		line := result.WritesLine{Time: t.Format(time.RFC3339), Device: cfg.Device, IntervalS: t.Sub(lastLine).Seconds(),
			Writes: sub(cur.Writes, last.Writes), KiBWritten: float64(sub(cur.Sectors, last.Sectors)) / 2, Writers: writers,
			NotAttributable: unknown}
		if line.Writers == nil {
			line.Writers = []result.Writer{}
		}
		last, lastLine = cur, t
		figs.Lines = append(figs.Lines, line)
		figs.Events++
		figs.Writes += line.Writes
		figs.KiBWritten += line.KiBWritten
		if cfg.OnLine != nil {
			cfg.OnLine(line)
		}
	}
	figs.DurationS = now().Sub(start).Seconds()
	figs.TopWriters = top(totals)
	if other := top(otherTotals); len(other) > 0 {
		figs.TopNotAttributable = other
	}
	return figs, nil
}

// addUp adds each writer's KiB to its total.
func addUp(totals map[int]result.Writer, writers []result.Writer) {
	for _, w := range writers {
		t := totals[w.PID]
		t.PID, t.Comm, t.KiB = w.PID, w.Comm, t.KiB+w.KiB
		totals[w.PID] = t
	}
}

// top returns the 10 largest totals, largest first (never nil).
func top(totals map[int]result.Writer) []result.Writer {
	out := []result.Writer{}
	for _, w := range totals {
		out = append(out, w)
	}
	slices.SortFunc(out, func(x, y result.Writer) int {
		return cmp.Or(cmp.Compare(y.KiB, x.KiB), cmp.Compare(x.PID, y.PID))
	})
	return out[:min(len(out), 10)]
}

// split sorts the processes whose write_bytes grew into the watched
// device's writers and those whose writes cannot be put on a device;
// those writing to other devices only are left out. Both keep the order.
func (d *Devices) split(h *host.Host, writers []result.Writer) (here, unknown []result.Writer) {
	for _, w := range writers {
		switch d.Attribute(h, w.PID, w.Comm) {
		case Here:
			here = append(here, w)
		case NotAttributable:
			unknown = append(unknown, w)
		}
	}
	return here, unknown
}

// sub is a-b, 0 when a counter went backwards (device re-created).
func sub(a, b uint64) uint64 {
	if a < b {
		return 0
	}
	return a - b
}

// Line formats a line the way users know it from armbianmonitor -d: the
// date, the write requests completed and the bytes they wrote (the
// kernel's 512-byte sectors, in KiB), and the seconds since the previous
// line; then the top writers of the device, and how many
// processes wrote where it cannot be said.
func Line(l result.WritesLine) string {
	return FitLine(l, 0)
}

// FitLine is Line kept within width columns (0: no limit): it names the
// top writers without their pids, then fewer of them, saying how many it
// left out, until the line fits. The number of processes whose writes
// could not be put on a device comes last, and goes first when the line
// is too long. The date and the counts are never cut.
func FitLine(l result.WritesLine, width int) string {
	t, err := time.Parse(time.RFC3339, l.Time)
	ts := l.Time
	if err == nil {
		ts = t.Local().Format("Mon Jan _2 15:04:05 MST 2006")
	}
	head := fmt.Sprintf("%s %s, %s in %.0f sec", ts, requests(l.Writes), kib(l.KiBWritten), l.IntervalS)
	top := l.Writers[:min(3, len(l.Writers))]
	note := ""
	switch n := len(l.NotAttributable); n {
	case 0:
	case 1:
		note = "1 writer not attributable to a device"
	default:
		note = fmt.Sprintf("%d writers not attributable to a device", n)
	}
	// withNote appends the note to a line, if any.
	withNote := func(s, note string) string {
		switch {
		case note == "":
			return s
		case s == head:
			return s + " · " + note
		}
		return s + "; " + note
	}
	with := func(n int, pids bool) string {
		var parts []string
		for _, w := range top[:n] {
			if pids {
				parts = append(parts, fmt.Sprintf("%s[%d] %s", w.Comm, w.PID, kib(w.KiB)))
			} else {
				parts = append(parts, fmt.Sprintf("%s %s", w.Comm, kib(w.KiB)))
			}
		}
		if n < len(top) {
			parts = append(parts, fmt.Sprintf("+%d more", len(l.Writers)-n))
		}
		if len(parts) == 0 {
			return head
		}
		return head + " · " + strings.Join(parts, ", ")
	}
	if width <= 0 {
		return withNote(with(len(top), true), note)
	}
	for n := len(top); n >= 0; n-- {
		for _, pids := range []bool{true, false} {
			for _, note := range []string{note, ""} {
				if s := withNote(with(n, pids), note); utf8.RuneCountInString(s) <= width {
					return s
				}
			}
		}
	}
	return head
}

// requests counts completed write requests: "1 write", "12 writes".
func requests(n uint64) string {
	if n == 1 {
		return "1 write"
	}
	return fmt.Sprintf("%d writes", n)
}

func kib(v float64) string {
	if v >= 10240 {
		return fmt.Sprintf("%.1f MiB", v/1024)
	}
	return fmt.Sprintf("%.0f KiB", v)
}

// WatchedDevice returns the device to watch for a path's identity: the
// filesystem's own block device (partition, dm or md device), else the
// whole device.
func WatchedDevice(id *blockdev.Identity) string {
	for _, l := range id.Stack {
		switch l.Kind {
		case "partition", "dm-crypt", "lvm", "dm", "md", "loop":
			return l.Device
		}
	}
	return id.Name
}

// Facts are what Advise looks at.
type Facts struct {
	// Root is the identity of the watched filesystem.
	Root *blockdev.Identity
	// Swaps are /proc/swaps' entries (file or device) with their identity.
	Swaps map[string]*blockdev.Identity
	// VarLog is the identity of /var/log; nil when unknown.
	VarLog *blockdev.Identity
}

// Medium says what a device is, for a person ("SD card (flash)", "virtio
// disk of a virtual machine: the host's storage, unknown to the guest"),
// and whether it is known to be flash, whose wear the advice spares. Only
// the kernel's facts are used: the kind of the device and, for disks
// behind SATA, SCSI or USB, its rotational flag.
func Medium(id *blockdev.Identity) (what string, flash bool) {
	if id == nil {
		return "unknown device", false
	}
	var rot *bool
	if id.Block != nil {
		rot = id.Block.Rotational
	}
	switch id.Kind {
	case blockdev.KindSD:
		return "SD card (flash)", true
	case blockdev.KindEMMC:
		return "eMMC (flash)", true
	case blockdev.KindNVMe:
		return "NVMe drive (flash)", true
	case blockdev.KindUFS:
		return "UFS (flash)", true
	case blockdev.KindMTD:
		return "raw flash (MTD)", true
	case blockdev.KindUSB:
		// USB sticks often claim to be rotational: only a drive saying it
		// is not rotational is taken for flash.
		if rot != nil && !*rot {
			return "USB drive, not rotational (flash)", true
		}
		return "USB drive (rotational, or it does not say: not known to be flash)", false
	case blockdev.KindSATA, blockdev.KindSCSI:
		bus := strings.ToUpper(id.Kind)
		switch {
		case rot == nil:
			return bus + " drive (the kernel does not say whether it is rotational)", false
		case *rot:
			return bus + " drive, rotational (a hard disk, not flash)", false
		}
		return bus + " drive, not rotational (flash)", true
	case blockdev.KindVirtio:
		return "virtio disk of a virtual machine: the host's storage, unknown to the guest", false
	case blockdev.KindRAM:
		return "memory (tmpfs, ramfs or zram), not flash", false
	case blockdev.KindNetwork:
		return "network filesystem, not local flash", false
	}
	return "device of unknown kind, not known to be flash", false
}

// Advise returns the advice for the watched device, each with its evidence
// (the facts and the writers seen) and its cost. The advice spares flash:
// for a device not known to be flash (a virtio disk, a hard disk) there is
// none, and Medium says why.
func Advise(f Facts, figs result.WritesFigures) []result.WritesAdvice {
	out := []result.WritesAdvice{}
	id := f.Root
	if id == nil {
		return out
	}
	what, flash := Medium(id)
	if !flash {
		return out
	}
	for _, sw := range slices.Sorted(maps.Keys(f.Swaps)) {
		s := f.Swaps[sw]
		if s != nil && s.Name != "" && s.Name == id.Name && s.Kind != blockdev.KindRAM {
			out = append(out, result.WritesAdvice{ID: "swap-on-flash",
				Evidence: fmt.Sprintf("swap %s is on %s, %s", sw, id.Name, what),
				Change:   "swap to zram instead (e.g. zram-tools or systemd's zram-generator) and disable the swap file or partition (dphys-swapfile on Raspberry Pi OS)",
				Cost:     "zram takes part of the RAM it saves; memory beyond RAM plus the compressed zram is no longer available"})
		}
	}
	if fs := id.Filesystem; fs != nil && fs.Type == "ext4" && (fs.CommitS == nil || *fs.CommitS < 60) {
		cur := "5 s (default)"
		if fs.CommitS != nil {
			cur = strconv.Itoa(*fs.CommitS) + " s"
		}
		out = append(out, result.WritesAdvice{ID: "ext4-commit",
			Evidence: fmt.Sprintf("%s is ext4 with a journal commit every %s", id.Mount.MountPoint, cur),
			Change:   "add commit=600 to its options in /etc/fstab: the journal is written every 10 minutes instead",
			Cost:     "a power loss loses up to 10 minutes of writes (a proper shutdown loses nothing)"})
	}
	if fs := id.Filesystem; fs != nil && fs.Atime != "noatime" && !fs.ReadOnly {
		out = append(out, result.WritesAdvice{ID: "atime",
			Evidence: fmt.Sprintf("%s is mounted %s: reading a file can write its access time", id.Mount.MountPoint, firstNonEmpty(fs.Atime, "relatime")),
			Change:   "add noatime to its options in /etc/fstab",
			Cost:     "programs that rely on access times (a few mail readers, tmp cleaners by atime) see stale times"})
	}
	var logWriters []string
	for _, w := range figs.TopWriters {
		if w.Comm == "systemd-journal" || w.Comm == "systemd-journald" || w.Comm == "rsyslogd" || w.Comm == "syslog-ng" {
			logWriters = append(logWriters, fmt.Sprintf("%s wrote %s", w.Comm, kib(w.KiB)))
		}
	}
	if v := f.VarLog; v != nil && v.Name == id.Name && v.Kind != blockdev.KindRAM || len(logWriters) > 0 {
		ev := "/var/log is on " + id.Name
		if len(logWriters) > 0 {
			ev += "; " + strings.Join(logWriters, ", ")
		}
		out = append(out, result.WritesAdvice{ID: "logs-on-flash",
			Evidence: ev,
			Change:   "keep the logs in RAM: log2ram, or zram-config's log overlay, or journald with Storage=volatile",
			Cost:     "logs since the last sync to storage are lost on a power loss or crash, which is when they matter"})
	}
	return out
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// Swaps returns the swap areas of /proc/swaps.
func Swaps(h *host.Host) []string {
	swaps, _ := kernelfile.ReadSwaps(h)
	var out []string
	for _, s := range swaps {
		out = append(out, s.Path)
	}
	return out
}
