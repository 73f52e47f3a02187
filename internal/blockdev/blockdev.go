// Package blockdev says what storage lies behind a path or a device: the
// mount and filesystem holding the path, the partition and the whole device
// underneath, through bind mounts, overlayfs, loop devices, device-mapper
// (dm-crypt, LVM) and md RAID, with the device's kind, bus and SD/eMMC
// registers. It also says when a path is not on storage at all (tmpfs,
// zram, a network filesystem): measuring RAM or a network is not measuring
// storage.
//
// Everything is read through host.Host, so the same code runs on the live
// system and on fixture roots; the kernel log (for the SD/eMMC bus mode) is
// dmesg's output, never debugfs.
package blockdev

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/host"
	"boardbench/internal/inventory/storage"
	"boardbench/internal/kernelfile"
)

// Kinds of storage (Identity.Kind).
const (
	KindSD     = "sd"
	KindEMMC   = "emmc"
	KindNVMe   = "nvme"
	KindSATA   = "sata"
	KindUSB    = "usb"
	KindVirtio = "virtio"
	KindSCSI   = "scsi"
	KindUFS    = "ufs"
	KindMTD    = "mtd"
	KindOther  = "other"
	// KindRAM is tmpfs, ramfs or zram: the files live in memory.
	KindRAM = "ram"
	// KindNetwork is a network filesystem (NFS, SMB, sshfs, 9p...).
	KindNetwork = "network"
)

// Identity is the storage behind a path: the result's top-level `device`.
type Identity struct {
	// Path is the path asked about, made absolute.
	Path string `json:"path"`
	// Raw is true when Path is a block device node itself.
	Raw bool `json:"raw"`
	// Kind is one of the Kind* constants; "" when unknown.
	Kind string `json:"kind"`
	// Name is the whole device's name under /sys/block, e.g. "mmcblk0".
	Name string `json:"name"`
	// Partition is the partition holding the filesystem, e.g. "mmcblk0p2";
	// "" when the filesystem sits on the whole device.
	Partition string `json:"partition"`
	// NotStorage says why measuring this path does not measure storage
	// ("tmpfs: the files live in RAM"); "" for real storage.
	NotStorage string `json:"not_storage,omitempty"`
	// Mount is the mount holding Path; nil for a raw device.
	Mount *storage.MountInfo `json:"mount"`
	// Filesystem summarises the mount options that matter for storage.
	Filesystem *Filesystem `json:"filesystem"`
	// Stack lists the layers from the filesystem down to the whole device.
	Stack []Layer `json:"stack"`
	// Block describes the whole device (model, bus, scheduler, read-ahead,
	// discard, SD/eMMC registers...); nil when there is none.
	Block *storage.Device `json:"block"`
	// CID and CSD are the SD/eMMC registers decoded; nil for other kinds.
	CID *storage.CID `json:"cid,omitempty"`
	CSD *storage.CSD `json:"csd,omitempty"`
	// BusMode is the SD/eMMC bus mode from the kernel log; nil when the
	// log does not say (or cannot be read).
	BusMode *storage.BusMode `json:"bus_mode,omitempty"`
	// HostModes are the fast modes the SD/eMMC controller's device tree
	// node declares ("SDR104", "SDR50", "DDR50", "HS200", "HS400"); empty
	// when it declares none or has no device tree node (some controllers
	// read their capabilities from the hardware instead).
	HostModes []string `json:"host_modes,omitempty"`
	// TRIM is true when the device accepts discard requests.
	TRIM *bool `json:"trim"`
	// Notes say what could not be found out.
	Notes []string `json:"notes,omitempty"`
}

// Layer is one level between a filesystem and the device holding it.
type Layer struct {
	// Kind is "bind", "overlay", "loop", "dm-crypt", "lvm", "dm", "md"
	// or "partition".
	Kind string `json:"kind"`
	// Device is the block device of this layer ("dm-0", "loop3"...), or
	// the directory for bind and overlay layers.
	Device string `json:"device"`
	// Detail says more: the mapper name, the backing file, the upper
	// directory.
	Detail string `json:"detail,omitempty"`
}

// Filesystem is what the mount options say about the filesystem's writes.
type Filesystem struct {
	Type string `json:"type"`
	// Atime is "noatime", "relatime", "strictatime" or "" (the kernel's
	// default, relatime).
	Atime string `json:"atime"`
	// CommitS is ext4's commit= interval in seconds; nil when not set
	// (ext4's default is 5 s).
	CommitS *int `json:"commit_s"`
	// Discard is true with the discard mount option (online TRIM).
	Discard bool `json:"discard"`
	// ReadOnly is true for a read-only mount.
	ReadOnly bool `json:"read_only"`
}

// Options tune Resolve.
type Options struct {
	// Redact hides serial numbers (CID serial, disk serial).
	Redact bool
	// KernelLog is dmesg's output; nil reads it with `dmesg` through the
	// host (a failure is a note, not an error).
	KernelLog []byte
}

// constError is an error whose value is its text, so that a sentinel
// error is a constant: static data that costs nothing when boardbench
// starts (errors.New would run at init). errors.Is and == match it.
type constError string

func (e constError) Error() string { return string(e) }

// ErrNotFound is returned when the path does not exist.
const ErrNotFound = constError("no such file or directory")

var networkFS = []string{"nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "virtiofs", "ceph", "glusterfs",
	"fuse.sshfs", "sshfs", "fuse.glusterfs", "afs", "ncpfs", "fuse.rclone", "fuse.s3fs"}

// maxDepth bounds the walk through stacked layers (and cycles in a hostile
// fixture).
const maxDepth = 16

// pseudoFS are kernel filesystems that hold no files on any storage and
// refuse or ignore what a storage test writes.
var pseudoFS = []string{"proc", "sysfs", "devtmpfs", "devpts", "cgroup", "cgroup2", "debugfs", "tracefs", "securityfs",
	"pstore", "bpf", "configfs", "mqueue", "hugetlbfs", "fusectl", "efivarfs", "binfmt_misc", "nsfs", "autofs", "rpc_pipefs"}

// PseudoFS reports whether fstype is a kernel pseudo filesystem (proc,
// sysfs, devtmpfs, cgroup...): nothing there is storage. tmpfs and ramfs
// are not in it: files live there, in RAM (Identity.NotStorage says so).
func PseudoFS(fstype string) bool { return slices.Contains(pseudoFS, fstype) }

// Resolve describes the storage behind p: a file or directory (its
// filesystem's device), or a block device node under /dev. On the live
// system p is made absolute and its symbolic links followed; on a fixture
// root it is taken as given.
func Resolve(ctx context.Context, h *host.Host, p string, opts Options) (*Identity, error) {
	abs := p
	if h.Live() {
		a, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		if abs, err = filepath.EvalSymlinks(a); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%s: %w", p, ErrNotFound)
			}
			return nil, err
		}
	}
	abs = path.Clean("/" + abs)
	id := &Identity{Path: abs, Stack: []Layer{}}
	r := &resolver{h: h, id: id}
	if strings.HasPrefix(abs, "/dev/") {
		name, err := r.deviceOfNode(abs)
		if err != nil {
			return nil, err
		}
		if name != "" {
			id.Raw = true
			r.walkDevice(name, 0)
			r.describe(ctx, opts)
			return id, nil
		}
	}
	mounts := r.mounts()
	if mounts == nil {
		return nil, errors.New("cannot read the mount table (/proc/self/mountinfo)")
	}
	r.walkPath(abs, mounts, 0)
	r.describe(ctx, opts)
	return id, nil
}

type resolver struct {
	h  *host.Host
	id *Identity
}

func (r *resolver) note(format string, args ...any) {
	r.id.Notes = append(r.id.Notes, fmt.Sprintf(format, args...))
}

func (r *resolver) mounts() []storage.MountInfo {
	ms, err := kernelfile.ReadMountInfo(r.h, kernelfile.Self)
	if err != nil {
		return nil
	}
	return storage.MountInfos(ms)
}

// deviceOfNode returns the /sys/block name of a device node ("" when the
// path is not a block device).
func (r *resolver) deviceOfNode(p string) (string, error) {
	if r.h.Live() {
		fi, err := r.h.Stat(p)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return "", fmt.Errorf("%s: %w", p, ErrNotFound)
			}
			return "", err
		}
		if fi.Mode()&fs.ModeDevice == 0 || fi.Mode()&fs.ModeCharDevice != 0 {
			return "", nil
		}
		if devno := devNumber(fi); devno != "" {
			if name := r.nameOfDevNo(devno); name != "" {
				return name, nil
			}
		}
	}
	base := path.Base(p)
	if strings.HasPrefix(p, "/dev/mapper/") {
		if name := r.mapperDevice(base); name != "" {
			return name, nil
		}
	}
	if r.h.Exists("/sys/class/block/" + base) {
		return base, nil
	}
	if r.h.Live() {
		return "", fmt.Errorf("%s: a block device unknown to /sys/class/block", p)
	}
	return "", nil
}

// mapperDevice finds the dm-N device whose mapper name is name.
func (r *resolver) mapperDevice(name string) string {
	names, _ := r.h.ReadDirNames("/sys/block")
	for _, n := range names {
		if strings.HasPrefix(n, "dm-") && readString(r.h, "/sys/block/"+n+"/dm/name") == name {
			return n
		}
	}
	return ""
}

// nameOfDevNo returns the block device (partition or whole) of MAJ:MIN.
func (r *resolver) nameOfDevNo(devno string) string {
	rp, err := r.h.Resolve("/sys/dev/block/" + devno)
	if err != nil {
		return ""
	}
	return path.Base(rp)
}

// longestMount returns the mount holding p: the longest mount point that
// is p or a parent of it, the last one mounted when several share it.
func longestMount(p string, mounts []storage.MountInfo) *storage.MountInfo {
	var best *storage.MountInfo
	for i := range mounts {
		mp := mounts[i].MountPoint
		if mp == p || mp == "/" || strings.HasPrefix(p, strings.TrimSuffix(mp, "/")+"/") {
			if best == nil || len(mp) >= len(best.MountPoint) {
				best = &mounts[i]
			}
		}
	}
	return best
}

func (r *resolver) walkPath(p string, mounts []storage.MountInfo, depth int) {
	if depth > maxDepth {
		r.note("more than %d stacked layers: stopped", maxDepth)
		return
	}
	m := longestMount(p, mounts)
	if m == nil {
		r.note("%s: no mount holds this path", p)
		return
	}
	if r.id.Mount == nil {
		mc := *m
		r.id.Mount = &mc
		r.id.Filesystem = filesystemOf(m)
	}
	if m.Root != "/" && m.Root != "" {
		r.id.Stack = append(r.id.Stack, Layer{Kind: "bind", Device: m.MountPoint, Detail: "directory " + m.Root + " of a filesystem on " + m.Source})
	}
	switch {
	case m.FSType == "tmpfs" || m.FSType == "ramfs" || m.FSType == "devtmpfs":
		r.id.Kind = KindRAM
		r.id.NotStorage = m.FSType + ": the files live in RAM, not on storage"
		return
	case slices.Contains(networkFS, m.FSType):
		r.id.Kind = KindNetwork
		r.id.NotStorage = m.FSType + ": a network filesystem (" + m.Source + "), not local storage"
		return
	case m.FSType == "overlay":
		upper := optionValue(m.SuperOptions, "upperdir")
		if upper == "" {
			r.id.NotStorage = "overlayfs without an upper directory: read-only"
			return
		}
		r.id.Stack = append(r.id.Stack, Layer{Kind: "overlay", Device: m.MountPoint, Detail: "upper directory " + upper})
		r.walkPath(upper, mounts, depth+1)
		return
	}
	name := ""
	if maj, _, ok := strings.Cut(m.DevNo, ":"); ok && maj != "0" {
		name = r.nameOfDevNo(m.DevNo)
	}
	if name == "" && strings.HasPrefix(m.Source, "/dev/") {
		// btrfs and others report an anonymous device number.
		if strings.HasPrefix(m.Source, "/dev/mapper/") {
			name = r.mapperDevice(path.Base(m.Source))
		} else if r.h.Exists("/sys/class/block/" + path.Base(m.Source)) {
			name = path.Base(m.Source)
		}
	}
	if name == "" {
		r.note("%s (%s on %s): no block device found", m.MountPoint, m.FSType, m.Source)
		return
	}
	r.walkDevice(name, depth+1)
}

// walkDevice follows a block device down to the whole device holding it.
func (r *resolver) walkDevice(name string, depth int) {
	if depth > maxDepth {
		r.note("more than %d stacked layers: stopped", maxDepth)
		return
	}
	dir := "/sys/class/block/" + name
	switch {
	case strings.HasPrefix(name, "zram") || strings.HasPrefix(name, "ram") && !strings.HasPrefix(name, "ramdisk"):
		r.id.Kind = KindRAM
		r.id.Name = name
		r.id.NotStorage = name + ": a compressed RAM disk, not storage"
		return
	case strings.HasPrefix(name, "dm-"):
		mapName := readString(r.h, dir+"/dm/name")
		uuid := readString(r.h, dir+"/dm/uuid")
		kind := "dm"
		switch {
		case strings.HasPrefix(uuid, "CRYPT-"):
			kind = "dm-crypt"
		case strings.HasPrefix(uuid, "LVM-"):
			kind = "lvm"
		}
		r.id.Stack = append(r.id.Stack, Layer{Kind: kind, Device: name, Detail: mapName})
		r.followSlaves(name, dir, depth)
		return
	case strings.HasPrefix(name, "md"):
		r.id.Stack = append(r.id.Stack, Layer{Kind: "md", Device: name, Detail: readString(r.h, dir+"/md/level")})
		r.followSlaves(name, dir, depth)
		return
	case strings.HasPrefix(name, "loop"):
		backing := readString(r.h, dir+"/loop/backing_file")
		r.id.Stack = append(r.id.Stack, Layer{Kind: "loop", Device: name, Detail: backing})
		if backing == "" {
			r.note("%s: backing file unknown", name)
			return
		}
		mounts := r.mounts()
		r.walkPath(backing, mounts, depth+1)
		return
	}
	if r.h.Exists(dir + "/partition") {
		rp, err := r.h.Resolve(dir)
		if err != nil {
			r.note("%s: %v", name, err)
			return
		}
		whole := path.Base(path.Dir(rp))
		r.id.Partition = name
		r.id.Stack = append(r.id.Stack, Layer{Kind: "partition", Device: name, Detail: "partition of " + whole})
		name = whole
	}
	r.id.Name = name
}

// followSlaves continues with the first device under a dm or md device.
func (r *resolver) followSlaves(name, dir string, depth int) {
	slaves, err := r.h.ReadDirNames(dir + "/slaves")
	if err != nil || len(slaves) == 0 {
		r.note("%s: the devices under it are not visible", name)
		return
	}
	slices.Sort(slaves)
	if len(slaves) > 1 {
		r.note("%s spans %d devices (%s): described the first", name, len(slaves), strings.Join(slaves, ", "))
	}
	r.walkDevice(slaves[0], depth+1)
}

// describe fills the whole device's description, kind and registers.
func (r *resolver) describe(ctx context.Context, opts Options) {
	id := r.id
	if id.Name == "" || id.Kind == KindRAM {
		return
	}
	d, ok := storage.DescribeDevice(r.h, id.Name, opts.Redact)
	if !ok {
		r.note("%s: not in /sys/block", id.Name)
		return
	}
	id.Block = &d
	id.Kind = kindOf(d.Kind)
	id.TRIM = d.Discard
	if d.MMC == nil {
		return
	}
	id.CID = storage.DecodeCID(d.MMC.Type, readString(r.h, "/sys/block/"+id.Name+"/device/cid"))
	if id.CID != nil && opts.Redact {
		id.CID.Serial = "(redacted)"
	}
	id.CSD = storage.DecodeCSD(d.MMC.Type, d.MMC.CSD)
	log := opts.KernelLog
	if log == nil {
		out, err := r.h.Run(ctx, "dmesg")
		if err != nil {
			r.note("bus mode: kernel log not readable (%v)", err)
		}
		log = out
	}
	if bm, ok := storage.ParseBusModes(string(log))[d.MMC.Host]; ok {
		id.BusMode = &bm
	} else if len(log) > 0 {
		r.note("bus mode: the kernel log no longer holds the line where %s was detected", d.MMC.Host)
	}
	id.HostModes = r.hostModes(d.MMC.Host)
}

// dtModes maps device tree properties of an MMC controller to bus modes.
var dtModes = []struct{ prop, mode string }{
	{"mmc-hs400-1_8v", "HS400"}, {"mmc-hs400-1_2v", "HS400"}, {"mmc-hs200-1_8v", "HS200"}, {"mmc-hs200-1_2v", "HS200"},
	{"sd-uhs-sdr104", "SDR104"}, {"sd-uhs-ddr50", "DDR50"}, {"sd-uhs-sdr50", "SDR50"},
}

func (r *resolver) hostModes(mmcHost string) []string {
	if mmcHost == "" {
		return nil
	}
	node := "/sys/class/mmc_host/" + mmcHost + "/device/of_node"
	var out []string
	for _, m := range dtModes {
		if r.h.Exists(node+"/"+m.prop) && !slices.Contains(out, m.mode) {
			out = append(out, m.mode)
		}
	}
	return out
}

func kindOf(inventoryKind string) string {
	switch inventoryKind {
	case "SD card":
		return KindSD
	case "eMMC":
		return KindEMMC
	case "NVMe":
		return KindNVMe
	case "SATA":
		return KindSATA
	case "USB":
		return KindUSB
	case "virtio":
		return KindVirtio
	case "SCSI":
		return KindSCSI
	case "UFS":
		return KindUFS
	case "MTD":
		return KindMTD
	}
	return KindOther
}

func filesystemOf(m *storage.MountInfo) *Filesystem {
	f := &Filesystem{Type: m.FSType}
	for _, o := range append(slices.Clone(m.Options), m.SuperOptions...) {
		switch {
		case o == "noatime" || o == "relatime" || o == "strictatime":
			f.Atime = o
		case o == "ro":
			f.ReadOnly = true
		case o == "discard":
			f.Discard = true
		case strings.HasPrefix(o, "commit="):
			if v, err := strconv.Atoi(strings.TrimPrefix(o, "commit=")); err == nil && v >= 0 {
				f.CommitS = &v
			}
		}
	}
	return f
}

func optionValue(opts []string, key string) string {
	for _, o := range opts {
		if v, ok := strings.CutPrefix(o, key+"="); ok {
			return v
		}
	}
	return ""
}

func readString(h *host.Host, p string) string {
	s, err := h.ReadString(p)
	if err != nil {
		return ""
	}
	return s
}

// Label is a one-line description, e.g. "mmcblk0 (SD card SanDisk SC16G,
// UHS SDR104) via dm-crypt".
func (id *Identity) Label() string {
	if id == nil {
		return ""
	}
	if id.NotStorage != "" {
		return id.NotStorage
	}
	var parts []string
	if id.Block != nil {
		what := strings.TrimSpace(strings.Join([]string{id.Block.Kind, id.Block.Vendor, id.Block.Model}, " "))
		parts = append(parts, fmt.Sprintf("%s (%s)", id.Name, what))
	} else if id.Name != "" {
		parts = append(parts, id.Name)
	}
	if id.BusMode != nil {
		parts = append(parts, "bus "+id.BusMode.Mode)
	}
	var layers []string
	for _, l := range id.Stack {
		if l.Kind != "partition" {
			layers = append(layers, l.Kind)
		}
	}
	if len(layers) > 0 {
		parts = append(parts, "via "+strings.Join(layers, ", "))
	}
	return strings.Join(parts, ", ")
}

// maxStacked bounds StackedOn's answer (and its walk through a hostile
// fixture's holders).
const maxStacked = 256

// StackedOn lists the block devices whose writes land on the device name:
// its partitions, the devices that hold it or its partitions (dm-crypt,
// LVM, md), and theirs, a few levels deep; each once, name itself left
// out. Loop devices are not holders: their backing file is found with
// Resolve.
func StackedOn(h *host.Host, name string) []string {
	seen := map[string]bool{name: true}
	var out []string
	var walk func(n string, depth int)
	walk = func(n string, depth int) {
		if depth > 4 {
			return
		}
		var next []string
		children, _ := h.ReadDirNames("/sys/class/block/" + n)
		for _, c := range children {
			if strings.HasPrefix(c, n) && h.Exists("/sys/class/block/"+n+"/"+c+"/partition") {
				next = append(next, c)
			}
		}
		holders, _ := h.ReadDirNames("/sys/class/block/" + n + "/holders")
		next = append(next, holders...)
		for _, c := range next {
			if seen[c] || len(out) >= maxStacked || c == "" || strings.ContainsAny(c, "/") {
				continue
			}
			seen[c] = true
			out = append(out, c)
			walk(c, depth+1)
		}
	}
	walk(name, 0)
	return out
}
