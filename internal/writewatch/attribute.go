package writewatch

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/blockdev"
	"boardbench/internal/host"
	"boardbench/internal/kernelfile"
)

// Devices is the watched device with every block device whose writes land
// on it: its partitions, the dm and md devices stacked on it, and loop
// devices whose backing file lies on one of these. A process's writes are
// the watched device's only when it has a file open for writing (or mapped
// shared and writable) on one of them.
type Devices struct {
	// Name is the watched device.
	Name string
	// Names are the devices (Name included), sorted.
	Names []string
	// devNos are their device numbers, "MAJOR:MINOR".
	devNos map[string]bool
}

// maxLoopPasses bounds the search for loop devices backed by files on the
// watched devices (a loop device on a loop device needs a second pass).
const maxLoopPasses = 4

// DevicesOf collects the devices whose writes land on the block device
// name (see Devices), with their numbers from /sys/class/block/NAME/dev.
func DevicesOf(ctx context.Context, h *host.Host, name string) *Devices {
	set := map[string]bool{name: true}
	for _, n := range blockdev.StackedOn(h, name) {
		set[n] = true
	}
	all, _ := h.ReadDirNames("/sys/class/block")
	for range maxLoopPasses {
		added := false
		for _, loop := range all {
			if !strings.HasPrefix(loop, "loop") || set[loop] || ctx.Err() != nil {
				continue
			}
			backing, err := h.ReadString("/sys/class/block/" + loop + "/loop/backing_file")
			if err != nil || !strings.HasPrefix(backing, "/") {
				continue
			}
			id, err := blockdev.Resolve(ctx, h, backing, blockdev.Options{Redact: true, KernelLog: []byte{}})
			if err != nil || !onSet(id, set) {
				continue
			}
			set[loop], added = true, true
			for _, n := range blockdev.StackedOn(h, loop) {
				set[n] = true
			}
		}
		if !added {
			break
		}
	}
	d := &Devices{Name: name, devNos: map[string]bool{}}
	for n := range set {
		d.Names = append(d.Names, n)
		if dev, err := h.ReadString("/sys/class/block/" + n + "/dev"); err == nil && dev != "" {
			d.devNos[dev] = true
		}
	}
	slices.Sort(d.Names)
	return d
}

// onSet reports whether the storage of id is one of the devices in set.
func onSet(id *blockdev.Identity, set map[string]bool) bool {
	if id == nil || id.NotStorage != "" {
		return false
	}
	if set[id.Name] || set[id.Partition] {
		return true
	}
	for _, l := range id.Stack {
		if set[l.Device] {
			return true
		}
	}
	return false
}

// hasDevNo reports whether the device number dev ("MAJOR:MINOR") is one
// of the devices'.
func (d *Devices) hasDevNo(dev string) bool { return d.devNos[dev] }

// hasName reports whether name is one of the devices.
func (d *Devices) hasName(name string) bool { return slices.Contains(d.Names, name) }

// Attribution says whose a process's writes are.
type Attribution int

const (
	// NotAttributable: the process holds no file open for writing on
	// any block device (it may have opened, written and closed one
	// between two polls): its writes cannot be put on a device.
	NotAttributable Attribution = iota
	// Elsewhere: its writable files are all on other block devices.
	Elsewhere
	// Here: it holds a file open for writing on the watched device (one
	// of Devices), or is a kernel thread named after it (jbd2/NAME-N,
	// kworker's flush-MAJOR:MINOR).
	Here
)

// maxFDs bounds the descriptors looked at in one process.
const maxFDs = 4096

// Attribute says whether the writes of process pid (command name comm)
// go to the watched device, from the files it holds now: descriptors
// opened for writing (/proc/PID/fdinfo/FD flags, on the mount mnt_id of
// /proc/PID/mountinfo) and shared writable mappings (/proc/PID/maps). A
// process with writable files on the watched device and elsewhere is the
// device's (its write_bytes cannot be split).
func (d *Devices) Attribute(h *host.Host, pid int, comm string) Attribution {
	dir := "/proc/" + strconv.Itoa(pid)
	fds, err := h.ReadDirNames(dir + "/fdinfo")
	if err != nil {
		return NotAttributable
	}
	if len(fds) == 0 {
		// Kernel threads hold no files; some are named after their device.
		return d.kernelThread(h, comm)
	}
	elsewhere := false
	// verdict classifies one device number (mountinfo's or maps'), with
	// the mount source for filesystems on an anonymous number (btrfs).
	verdict := func(dev, source string) Attribution {
		if d.hasDevNo(dev) {
			return Here
		}
		if !strings.HasPrefix(dev, "0:") {
			return Elsewhere
		}
		if name, ok := strings.CutPrefix(source, "/dev/"); ok && !strings.Contains(name, "/") {
			if d.hasName(name) {
				return Here
			}
			if h.Exists("/sys/class/block/" + name) {
				return Elsewhere
			}
		}
		return NotAttributable
	}
	var mounts map[int]kernelfile.MountDev
	for i, fd := range fds {
		if i >= maxFDs {
			break
		}
		s, err := h.ReadString(dir + "/fdinfo/" + fd)
		if err != nil {
			continue
		}
		info, ok := kernelfile.ParseFDInfo(s)
		if !ok || !info.Writable() || info.MntID < 0 {
			continue
		}
		if mounts == nil {
			mi, _ := h.ReadString(dir + "/mountinfo")
			mounts = kernelfile.ParseMountDevs(mi)
		}
		m, ok := mounts[info.MntID]
		if !ok {
			continue
		}
		switch verdict(m.DevNo, m.Source) {
		case Here:
			return Here
		case Elsewhere:
			elsewhere = true
		}
	}
	if maps, err := h.ReadString(dir + "/maps"); err == nil {
		for _, dev := range kernelfile.SharedWritableMaps(maps) {
			switch verdict(dev, "") {
			case Here:
				return Here
			case Elsewhere:
				elsewhere = true
			}
		}
	}
	if elsewhere {
		return Elsewhere
	}
	return NotAttributable
}

// kernelThread attributes a kernel thread by its name: ext4's journal
// thread "jbd2/NAME-N" writes to NAME, a writeback worker
// "kworker/...+flush-MAJOR:MINOR" to that device. A name cut short by the
// kernel's 15-byte limit that names no device is not attributable.
func (d *Devices) kernelThread(h *host.Host, comm string) Attribution {
	if rest, ok := strings.CutPrefix(comm, "jbd2/"); ok {
		name := rest
		if i := strings.LastIndexByte(rest, '-'); i > 0 {
			name = rest[:i]
		}
		switch {
		case name == "" || strings.Contains(name, "/"):
			return NotAttributable
		case d.hasName(name):
			return Here
		case h.Exists("/sys/class/block/" + name):
			return Elsewhere
		}
		return NotAttributable
	}
	if _, rest, ok := strings.Cut(comm, "flush-"); ok && strings.HasPrefix(comm, "kworker/") {
		end := strings.IndexFunc(rest, func(r rune) bool { return r != ':' && (r < '0' || r > '9') })
		if end >= 0 {
			rest = rest[:end]
		}
		maj, mn, ok := strings.Cut(rest, ":")
		if !ok || maj == "" || mn == "" {
			return NotAttributable
		}
		if d.hasDevNo(rest) {
			return Here
		}
		if maj != "0" {
			return Elsewhere
		}
	}
	return NotAttributable
}

// String names the devices, e.g. "vda (with vda1, dm-0)".
func (d *Devices) String() string {
	var others []string
	for _, n := range d.Names {
		if n != d.Name {
			others = append(others, n)
		}
	}
	if len(others) == 0 {
		return d.Name
	}
	return d.Name + " (with " + strings.Join(others, ", ") + ")"
}
