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
	if !strings.Contains(s, " 2/40 pages written after 5 sec") || !strings.Contains(s, "jbd2/mmcblk0p2-8[120] 16 KiB") {
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
		{width: 100, want: []string{"12/192 pages written after 5 sec", "systemd-journal", "more"}, avoid: []string{"jbd2"}},
		{width: 60, want: []string{"12/192 pages written after 5 sec"}, avoid: []string{"systemd-journal"}},
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
	if s := FitLine(l, 0); !strings.HasSuffix(s, "pages written after 1 sec · 1 writer not attributable to a device") {
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
