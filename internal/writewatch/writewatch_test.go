package writewatch

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"boardbench/internal/blockdev"
	"boardbench/internal/host"
	"boardbench/internal/inventory/storage"
	"boardbench/internal/result"
	"boardbench/internal/testutil/wait"
)

func TestWritersBetween(t *testing.T) {
	before := map[int]proc{1: {"systemd-journal", 4096}, 2: {"rsyslogd", 0}, 3: {"old", 100}}
	after := map[int]proc{1: {"systemd-journal", 4096 + 8192}, 2: {"rsyslogd", 1024}, 3: {"reused", 5000}, 4: {"new", 999}}
	got := writersBetween(before, after)
	want := []result.Writer{{PID: 1, Comm: "systemd-journal", KiB: 8}, {PID: 2, Comm: "rsyslogd", KiB: 1}}
	if !slices.Equal(got, want) {
		t.Errorf("writersBetween = %+v, want %+v", got, want)
	}
}

func TestLine(t *testing.T) {
	l := result.WritesLine{Time: "2021-11-14T14:43:14Z", Device: "mmcblk0p2", IntervalS: 5, Writes: 2, KiBWritten: 20,
		Writers: []result.Writer{{PID: 120, Comm: "jbd2/mmcblk0p2-8", KiB: 16}}}
	s := Line(l)
	if !strings.Contains(s, " 2 writes, 20 KiB in 5 sec") || !strings.Contains(s, "jbd2/mmcblk0p2-8[120] 16 KiB") {
		t.Errorf("Line = %q", s)
	}
}

func TestFitLine(t *testing.T) {
	l := result.WritesLine{Time: "2021-11-14T14:43:14Z", Device: "mmcblk0p2", IntervalS: 5, Writes: 12, KiBWritten: 96,
		Writers: []result.Writer{{PID: 1234, Comm: "systemd-journal", KiB: 64}, {PID: 234567, Comm: "kworker/u8:2-ev", KiB: 16},
			{PID: 345678, Comm: "jbd2/mmcblk0p2-", KiB: 12}, {PID: 456789, Comm: "rsyslogd", KiB: 4}}}
	full := FitLine(l, 0)
	if len(full) <= 100 {
		t.Fatalf("the test line is only %d columns: %q", len(full), full)
	}
	tests := []struct {
		width       int
		want, avoid []string
	}{
		{width: 0, want: []string{"systemd-journal[1234] 64 KiB", "jbd2/mmcblk0p2-[345678]"}, avoid: []string{"more"}},
		{width: 100, want: []string{"12 writes, 96 KiB in 5 sec", "systemd-journal", "more"}, avoid: []string{"jbd2"}},
		{width: 60, want: []string{"12 writes, 96 KiB in 5 sec"}, avoid: []string{"systemd-journal"}},
	}
	for _, tt := range tests {
		s := FitLine(l, tt.width)
		if strings.Contains(s, "attributable") {
			t.Errorf("FitLine(%d) = %q speaks of writers not attributable, there are none", tt.width, s)
		}
		if tt.width > 0 && len([]rune(s)) > tt.width && strings.Contains(s, "·") {
			t.Errorf("FitLine(%d) is %d columns: %q", tt.width, len([]rune(s)), s)
		}
		for _, w := range tt.want {
			if !strings.Contains(s, w) {
				t.Errorf("FitLine(%d) = %q, lacks %q", tt.width, s, w)
			}
		}
		for _, w := range tt.avoid {
			if strings.Contains(s, w) {
				t.Errorf("FitLine(%d) = %q, has %q", tt.width, s, w)
			}
		}
	}
}

// TestFitLineNotAttributable: the number of writers whose writes cannot be
// put on a device ends the line, and goes before the device's writers when
// the line is too long.
func TestFitLineNotAttributable(t *testing.T) {
	l := result.WritesLine{Time: "2021-11-14T14:43:14Z", Device: "vda", IntervalS: 1, Writes: 3, KiBWritten: 12,
		Writers:         []result.Writer{{PID: 4321, Comm: "postgres", KiB: 12}},
		NotAttributable: []result.Writer{{PID: 99, Comm: "cp", KiB: 4}, {PID: 98, Comm: "tar", KiB: 8}}}
	if s := FitLine(l, 0); !strings.HasSuffix(s, " · postgres[4321] 12 KiB; 2 writers not attributable to a device") {
		t.Errorf("FitLine = %q", s)
	}
	if s := FitLine(l, 90); !strings.Contains(s, "postgres[4321]") || strings.Contains(s, "attributable") || len([]rune(s)) > 90 {
		t.Errorf("FitLine(90) = %q: want the writer kept, the note dropped", s)
	}
	l.Writers, l.NotAttributable = []result.Writer{}, l.NotAttributable[:1]
	if s := FitLine(l, 0); !strings.HasSuffix(s, "3 writes, 12 KiB in 1 sec · 1 writer not attributable to a device") {
		t.Errorf("FitLine without writers = %q", s)
	}
}

func TestAdvise(t *testing.T) {
	commit := 600
	sd := &blockdev.Identity{Kind: blockdev.KindSD, Name: "mmcblk0",
		Mount:      nil,
		Filesystem: &blockdev.Filesystem{Type: "ext4", Atime: "relatime"}}
	sd.Mount = mountAt("/")
	facts := Facts{Root: sd, Swaps: map[string]*blockdev.Identity{
		"/var/swap":  {Kind: blockdev.KindSD, Name: "mmcblk0"},
		"/dev/zram0": {Kind: blockdev.KindRAM, Name: "zram0"},
	}, VarLog: &blockdev.Identity{Kind: blockdev.KindSD, Name: "mmcblk0"}}
	figs := result.WritesFigures{TopWriters: []result.Writer{{PID: 300, Comm: "rsyslogd", KiB: 64}}}
	ids := func(as []result.WritesAdvice) []string {
		var out []string
		for _, a := range as {
			if a.Evidence == "" || a.Change == "" || a.Cost == "" {
				t.Errorf("advice %+v lacks evidence, change or cost", a)
			}
			out = append(out, a.ID)
		}
		return out
	}
	if got := ids(Advise(facts, figs)); !slices.Equal(got, []string{"swap-on-flash", "ext4-commit", "atime", "logs-on-flash"}) {
		t.Errorf("advice %v", got)
	}
	// A tuned card: commit=600, noatime, logs and swap in zram.
	tuned := &blockdev.Identity{Kind: blockdev.KindSD, Name: "mmcblk0", Mount: mountAt("/"),
		Filesystem: &blockdev.Filesystem{Type: "ext4", Atime: "noatime", CommitS: &commit}}
	facts = Facts{Root: tuned, Swaps: map[string]*blockdev.Identity{"/dev/zram0": {Kind: blockdev.KindRAM, Name: "zram0"}},
		VarLog: &blockdev.Identity{Kind: blockdev.KindRAM, Name: "zram1"}}
	if got := ids(Advise(facts, result.WritesFigures{})); len(got) != 0 {
		t.Errorf("advice for a tuned card: %v", got)
	}
	// The same untuned setup on a device not known to be flash gets no
	// flash advice.
	yes, no := true, false
	for _, kind := range []struct {
		kind string
		rot  *bool
	}{{blockdev.KindVirtio, nil}, {blockdev.KindSATA, &yes}, {blockdev.KindSATA, nil}, {blockdev.KindUSB, nil}, {blockdev.KindOther, nil}, {"", nil}} {
		disk := &blockdev.Identity{Kind: kind.kind, Name: "vda", Mount: mountAt("/"), Block: &storage.Device{Rotational: kind.rot},
			Filesystem: &blockdev.Filesystem{Type: "ext4", Atime: "relatime"}}
		facts = Facts{Root: disk, Swaps: map[string]*blockdev.Identity{"/swap": {Kind: kind.kind, Name: "vda"}}, VarLog: disk}
		if got := ids(Advise(facts, figs)); len(got) != 0 {
			t.Errorf("flash advice for %s (rotational %v): %v", kind.kind, kind.rot, got)
		}
	}
	for _, kind := range []struct {
		kind string
		rot  *bool
	}{{blockdev.KindNVMe, nil}, {blockdev.KindSATA, &no}, {blockdev.KindUSB, &no}, {blockdev.KindEMMC, nil}} {
		disk := &blockdev.Identity{Kind: kind.kind, Name: "sda", Mount: mountAt("/"), Block: &storage.Device{Rotational: kind.rot},
			Filesystem: &blockdev.Filesystem{Type: "ext4", Atime: "relatime"}}
		if got := ids(Advise(Facts{Root: disk}, result.WritesFigures{})); !slices.Equal(got, []string{"ext4-commit", "atime"}) {
			t.Errorf("advice for flash %s (rotational %v): %v", kind.kind, kind.rot, got)
		}
	}
}

func TestMedium(t *testing.T) {
	yes, no := true, false
	for _, tc := range []struct {
		id    *blockdev.Identity
		want  string
		flash bool
	}{
		{&blockdev.Identity{Kind: blockdev.KindVirtio}, "virtio disk", false},
		{&blockdev.Identity{Kind: blockdev.KindSD}, "SD card (flash)", true},
		{&blockdev.Identity{Kind: blockdev.KindEMMC}, "eMMC (flash)", true},
		{&blockdev.Identity{Kind: blockdev.KindNVMe}, "NVMe drive (flash)", true},
		{&blockdev.Identity{Kind: blockdev.KindUSB, Block: &storage.Device{Rotational: &yes}}, "USB drive (rotational", false},
		{&blockdev.Identity{Kind: blockdev.KindUSB, Block: &storage.Device{Rotational: &no}}, "USB drive, not rotational (flash)", true},
		{&blockdev.Identity{Kind: blockdev.KindSATA, Block: &storage.Device{Rotational: &yes}}, "SATA drive, rotational", false},
		{&blockdev.Identity{Kind: blockdev.KindSATA, Block: &storage.Device{Rotational: &no}}, "SATA drive, not rotational (flash)", true},
		{&blockdev.Identity{Kind: blockdev.KindSCSI}, "SCSI drive (the kernel does not say", false},
		{&blockdev.Identity{Kind: blockdev.KindOther}, "unknown kind", false},
		{nil, "unknown device", false},
	} {
		what, flash := Medium(tc.id)
		if !strings.Contains(what, tc.want) || flash != tc.flash {
			t.Errorf("Medium(%+v) = %q, %v; want %q, %v", tc.id, what, flash, tc.want, tc.flash)
		}
	}
}

// helperEnv makes the test binary a process that writes and then waits
// with the file open, so that its write_bytes can be read, and its file
// seen, while it is alive.
const helperEnv = "BOARDBENCH_WRITES_HELPER"

func TestMain(m *testing.M) {
	if file := os.Getenv(helperEnv); file != "" {
		f, err := os.Create(file)
		if err == nil {
			buf := make([]byte, 1<<20)
			for i := range buf {
				buf[i] = byte(i * 7)
			}
			for range 4 {
				_, _ = f.Write(buf)
			}
			_ = f.Sync()
		}
		// Alive, with the file held open (a writer is the device's while
		// it holds a file open for writing there), until the test has
		// seen it and kills it, however long a loaded machine takes.
		time.Sleep(wait.HangGuard)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestWatchSeesWritesAndWriter writes 4 MiB to a file and syncs it while
// the watch runs: the device's counters must move and the writing process
// must be named.
func TestWatchSeesWritesAndWriter(t *testing.T) {
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
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), helperEnv+"="+filepath.Join(dir, "data"))
	ctx, cancel := context.WithTimeout(context.Background(), wait.HangGuard)
	defer cancel()
	var lines []result.WritesLine
	started := false
	figs, err := Watch(ctx, h, Config{Device: dev, Interval: 200 * time.Millisecond, OnLine: func(l result.WritesLine) {
		lines = append(lines, l)
		for _, w := range l.Writers {
			if w.PID == cmd.Process.Pid && w.KiB >= 4096 {
				cancel()
			}
		}
	}, Now: func() time.Time {
		if !started {
			started = true
			if err := cmd.Start(); err != nil {
				t.Error(err)
			}
		}
		return time.Now()
	}})
	if cmd.Process != nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
	if err != nil {
		t.Fatal(err)
	}
	if figs.Events == 0 || figs.KiBWritten < 4096 {
		t.Fatalf("%d lines, %.0f KiB written on %s; want the 4 MiB written", figs.Events, figs.KiBWritten, dev)
	}
	found := false
	for _, w := range figs.TopWriters {
		if w.PID == cmd.Process.Pid {
			found = w.KiB >= 4096
		}
	}
	if !found {
		t.Errorf("the writing process %d is not among the top writers with 4 MiB: %s", cmd.Process.Pid, fmt.Sprint(figs.TopWriters))
	}
}

func mountAt(mp string) *storage.MountInfo { return &storage.MountInfo{MountPoint: mp, FSType: "ext4"} }
