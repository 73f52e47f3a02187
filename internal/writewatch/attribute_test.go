package writewatch

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"boardbench/internal/blockdev"
	"boardbench/internal/host"
	"boardbench/internal/result"
	"boardbench/internal/testutil/fixture"
)

// twoDisks is a fixture machine with two disks: vda (vda1 holds /, and the
// backing file of loop0, mounted on /mnt/img) and vdb (vdb1 under the
// dm-crypt device dm-0 on /data, vdb2 a btrfs on /home with an anonymous
// device number).
func twoDisks() map[string]string {
	const stat = "1 0 8 0 2 0 16 0 0 0 0\n"
	files := map[string]string{
		"/sys/class/block/vda/dev":                 "254:0\n",
		"/sys/class/block/vda/stat":                stat,
		"/sys/class/block/vda/holders/":            "",
		"/sys/class/block/vda/vda1/dev":            "254:1\n",
		"/sys/class/block/vda/vda1/partition":      "1\n",
		"/sys/class/block/vda/vda1/stat":           stat,
		"/sys/class/block/vda/vda1/holders/":       "",
		"/sys/class/block/vda1":                    "->vda/vda1",
		"/sys/class/block/vdb/dev":                 "254:16\n",
		"/sys/class/block/vdb/stat":                stat,
		"/sys/class/block/vdb/vdb1/dev":            "254:17\n",
		"/sys/class/block/vdb/vdb1/partition":      "1\n",
		"/sys/class/block/vdb/vdb1/holders/dm-0":   "->../../../dm-0",
		"/sys/class/block/vdb/vdb2/dev":            "254:18\n",
		"/sys/class/block/vdb/vdb2/partition":      "2\n",
		"/sys/class/block/vdb1":                    "->vdb/vdb1",
		"/sys/class/block/vdb2":                    "->vdb/vdb2",
		"/sys/class/block/dm-0/dev":                "253:0\n",
		"/sys/class/block/dm-0/dm/name":            "data\n",
		"/sys/class/block/dm-0/dm/uuid":            "CRYPT-LUKS2-x\n",
		"/sys/class/block/dm-0/slaves/vdb1":        "->../../vdb/vdb1",
		"/sys/class/block/loop0/dev":               "7:0\n",
		"/sys/class/block/loop0/loop/backing_file": "/srv/disk.img\n",
		"/sys/class/block/loop1/dev":               "7:1\n",
		"/sys/class/block/loop1/loop/backing_file": "/tmp/ram.img\n",
		"/sys/dev/block/254:1":                     "->../../class/block/vda/vda1",
		"/sys/dev/block/253:0":                     "->../../class/block/dm-0",
		"/sys/dev/block/7:0":                       "->../../class/block/loop0",
		"/srv/disk.img":                            "",
		"/tmp/ram.img":                             "",
	}
	const mountinfo = "21 1 254:1 / / rw,relatime - ext4 /dev/vda1 rw\n" +
		"22 21 253:0 / /data rw,relatime - ext4 /dev/mapper/data rw\n" +
		"23 21 0:30 / /tmp rw - tmpfs tmpfs rw\n" +
		"24 21 7:0 / /mnt/img rw - ext4 /dev/loop0 rw\n" +
		"25 21 0:40 / /home rw - btrfs /dev/vdb2 rw,subvol=/home\n" +
		"26 21 0:21 / /proc rw - proc proc rw\n"
	files["/proc/self/mountinfo"] = mountinfo
	const (
		wronly = "pos:\t0\nflags:\t02100001\nmnt_id:\t%d\n"
		rdwr   = "pos:\t0\nflags:\t0100002\nmnt_id:\t%d\n"
		rdonly = "pos:\t0\nflags:\t0100000\nmnt_id:\t%d\n"
		pipe   = "pos:\t0\nflags:\t01\nmnt_id:\t15\nino:\t1234\n"
	)
	procs := []struct {
		pid    int
		comm   string
		fdinfo map[int]string
		maps   string
	}{
		{100, "writer-a", map[int]string{0: rdonly, 1: pipe, 3: fmt.Sprintf(wronly, 21)}, ""},
		{101, "writer-b", map[int]string{3: fmt.Sprintf(rdwr, 22)}, ""},
		{102, "reader", map[int]string{1: pipe, 3: fmt.Sprintf(rdonly, 21), 4: fmt.Sprintf(rdonly, 22)}, ""},
		{103, "tmpwriter", map[int]string{4: fmt.Sprintf(wronly, 23)}, ""},
		{104, "mapper", map[int]string{3: fmt.Sprintf(rdonly, 22)},
			"7f0000000000-7f0000100000 r-xp 00000000 fe:01 11 /usr/bin/mapper\n7f0000200000-7f0000300000 rw-s 00000000 fd:00 12 /data/db\n"},
		{105, "imgwriter", map[int]string{3: fmt.Sprintf(wronly, 24)}, ""},
		{106, "btrfswriter", map[int]string{3: fmt.Sprintf(wronly, 25)}, ""},
		{107, "jbd2/vda1-8", map[int]string{}, ""},
		{108, "kworker/u8:2+flush-254:16", map[int]string{}, ""},
		{109, "both", map[int]string{3: fmt.Sprintf(wronly, 21), 4: fmt.Sprintf(rdwr, 22)}, ""},
		{110, "idle", map[int]string{3: fmt.Sprintf(wronly, 21)}, ""},
		{111, "hidden", nil, ""},
		{112, "badfdinfo", map[int]string{3: "flags:\tzz\nmnt_id:\t21\n", 4: "pos: 0\n", 5: fmt.Sprintf(wronly, 99)}, ""},
	}
	for _, p := range procs {
		dir := fmt.Sprintf("/proc/%d/", p.pid)
		files[dir+"comm"] = p.comm + "\n"
		files[dir+"io"] = "rchar: 0\nwchar: 0\nwrite_bytes: 0\n"
		if p.fdinfo == nil {
			continue
		}
		files[dir+"fdinfo/"] = ""
		files[dir+"mountinfo"] = mountinfo
		files[dir+"maps"] = p.maps
		for fd, s := range p.fdinfo {
			files[fmt.Sprintf("%sfdinfo/%d", dir, fd)] = s
		}
	}
	return files
}

// TestWritersPerDevice: on a machine with two disks, each watched device
// lists only the processes holding a file open for writing on it (its
// partitions, the dm-crypt device over it, the loop device backed by a
// file on it, a btrfs on it, its journal and writeback threads); those
// without a writable file on any disk are not attributable, and counted as
// such for every device, never as its writers.
func TestWritersPerDevice(t *testing.T) {
	root := fixture.Root(t, twoDisks(), map[string]string{"/proc/113/comm": "fifo\n", "/proc/113/io": "write_bytes: 0\n",
		"/proc/113/fdinfo/": "", "/proc/113/mountinfo": "21 1 254:1 / / rw - ext4 /dev/vda1 rw\n"})
	// A hostile root: FIFOs where fdinfo and maps belong are not opened.
	for _, p := range []string{"proc/113/fdinfo/3", "proc/113/maps"} {
		if err := syscall.Mkfifo(filepath.Join(root, p), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := fixture.Open(t, root)
	before := processes(h)
	for pid := 100; pid <= 113; pid++ {
		if pid == 110 {
			continue
		}
		fixture.Write(t, root, fmt.Sprintf("/proc/%d/io", pid), fmt.Sprintf("rchar: 0\nwchar: 0\nwrite_bytes: %d\n", 4096*(pid-99)))
	}
	writers := writersBetween(before, processes(h))
	if len(writers) != 13 {
		t.Fatalf("%d writers, want 13: %v", len(writers), writers)
	}
	pids := func(ws []result.Writer) []int {
		out := []int{}
		for _, w := range ws {
			out = append(out, w.PID)
		}
		slices.Sort(out)
		return out
	}
	unknown := []int{102, 103, 111, 112, 113}
	for _, tc := range []struct {
		dev     string
		names   []string
		writers []int
	}{
		{"vda", []string{"loop0", "vda", "vda1"}, []int{100, 105, 107, 109}},
		{"vda1", []string{"loop0", "vda1"}, []int{100, 105, 107, 109}},
		{"vdb", []string{"dm-0", "vdb", "vdb1", "vdb2"}, []int{101, 104, 106, 108, 109}},
		{"vdb1", []string{"dm-0", "vdb1"}, []int{101, 104, 109}},
		{"dm-0", []string{"dm-0"}, []int{101, 104, 109}},
		{"loop0", []string{"loop0"}, []int{105}},
	} {
		devs := DevicesOf(context.Background(), h, tc.dev)
		if !slices.Equal(devs.Names, tc.names) {
			t.Errorf("%s: devices %v, want %v", tc.dev, devs.Names, tc.names)
		}
		here, other := devs.split(h, writers)
		if got := pids(here); !slices.Equal(got, tc.writers) {
			t.Errorf("%s: writers %v, want %v", tc.dev, got, tc.writers)
		}
		if got := pids(other); !slices.Equal(got, unknown) {
			t.Errorf("%s: not attributable %v, want %v", tc.dev, got, unknown)
		}
	}
}

// TestKernelThreadNames: journal and writeback threads are attributed by
// the device they name, and a name cut short names none.
func TestKernelThreadNames(t *testing.T) {
	h := fixture.Open(t, fixture.Root(t, twoDisks()))
	devs := DevicesOf(context.Background(), h, "vda")
	for comm, want := range map[string]Attribution{
		"jbd2/vda1-8":               Here,
		"jbd2/vdb1-8":               Elsewhere,
		"jbd2/mmcblk0p":             NotAttributable,
		"jbd2/":                     NotAttributable,
		"jbd2/../x-8":               NotAttributable,
		"kworker/u8:2+flush-254:0":  Here,
		"kworker/u8:2-flush-7:0":    Here,
		"kworker/u8:2+flush-254:16": Elsewhere,
		"kworker/u8:2+flush-":       NotAttributable,
		"kworker/u8:2+flush-0:45":   NotAttributable,
		"kworker/0:1-events":        NotAttributable,
		"flush-254:0":               NotAttributable,
	} {
		if got := devs.kernelThread(h, comm); got != want {
			t.Errorf("%q: %v, want %v", comm, got, want)
		}
	}
}

// TestAttributeLive: a child holding a file open for writing in a
// temporary directory is a writer of the device under it, and not of
// another block device of this machine (a zram or loop device, a second
// disk).
func TestAttributeLive(t *testing.T) {
	if os.Getuid() != 0 {
		t.Fatal("reading /proc/PID/io needs root (CI runs as root)")
	}
	h, err := host.New("/")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	id, err := blockdev.Resolve(context.Background(), h, dir, blockdev.Options{KernelLog: []byte{}})
	if err != nil {
		t.Fatal(err)
	}
	dev := WatchedDevice(id)
	if dev == "" {
		t.Fatalf("%s is not on a block device (%s): cannot test", dir, id.NotStorage)
	}
	// The child opens the file for writing as fd 3, says so, and holds
	// it until its stdin closes.
	cmd := exec.Command("sh", "-c", `exec 3>>"$1" && echo x >&3 && echo ready && read -r _`, "sh", filepath.Join(dir, "data"))
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = stdin.Close(); _ = cmd.Wait() }()
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "ready\n" {
		t.Fatalf("the child did not open its file: %q, %v", line, err)
	}
	pid := cmd.Process.Pid
	devs := DevicesOf(context.Background(), h, dev)
	if got := devs.Attribute(h, pid, "sh"); got != Here {
		t.Errorf("a process writing to %s: %v, want Here", devs, got)
	}
	names, _ := h.ReadDirNames("/sys/class/block")
	for _, n := range names {
		if slices.Contains(devs.Names, n) || !h.Exists("/sys/class/block/"+n+"/dev") {
			continue
		}
		other := DevicesOf(context.Background(), h, n)
		if slices.Contains(other.Names, dev) {
			continue // dev is stacked on n: its writes are n's too
		}
		if got := other.Attribute(h, pid, "sh"); got != Elsewhere {
			t.Errorf("a process writing to %s is %v for %s, want Elsewhere", devs, got, other)
		}
		return
	}
	t.Log("no other block device on this machine: only the watched one checked")
}
