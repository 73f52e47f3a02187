package storage

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
	"boardbench/internal/power"
	"boardbench/internal/report/runtext"
	"boardbench/internal/result"
	"boardbench/internal/storagebench"
	"boardbench/internal/storagerun"
	"boardbench/internal/testutil/loopfs"
	"boardbench/internal/testutil/need"
)

func execute(t *testing.T, args ...string) (string, string, error) {
	t.Helper()
	ios, stdout, stderr := iostreams.Test()
	cmd := NewCmd(cmdutil.NewFactory(ios), nil)
	cmd.SetFlagErrorFunc(cmdutil.FlagErrorFunc)
	cmd.SetArgs(args)
	cmd.SetOut(&bytes.Buffer{})
	cmd.SetErr(&bytes.Buffer{})
	err := cmd.Execute()
	return stdout.String(), stderr.String(), err
}

// TestShortRun is the benchmark in CI on the machine's own disk, in short
// mode: the result holds the device, the table and the summary, and the
// report renders it.
func TestShortRun(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(t.TempDir(), "storage.json")
	stdout, _, err := execute(t, "--short", "--json", "-o", out, dir)
	if err != nil {
		t.Fatal(err)
	}
	r, err := result.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	if r.Device == nil || r.Device.Kind == "" || r.Device.Mount == nil {
		t.Fatalf("device %+v: kind or mount missing", r.Device)
	}
	if r.Device.NotStorage == "" && r.Device.Name == "" {
		t.Errorf("device on storage without a name: %+v", r.Device)
	}
	var figs result.StorageFigures
	if err := json.Unmarshal(r.Phases[0].Figures, &figs); err != nil {
		t.Fatal(err)
	}
	if len(figs.Table) != 5 || figs.Table[4].RecordKiB != 16384 {
		t.Fatalf("table %+v, want the 5 record sizes", figs.Table)
	}
	s := r.Summary.StorageSummary
	if s == nil || s.SeqReadMBs == nil || s.SeqWriteMBs == nil || s.RandRead4kIOPS == nil || s.RandWrite4kIOPS == nil {
		t.Fatalf("summary %+v lacks a headline figure", s)
	}
	if got, want := *s.SeqWriteMBs, *figs.Table[4].WriteKBs*1024/1e6; got != want {
		t.Errorf("seq_write_mb_s %v, want the 16384 KiB write in MB/s %v", got, want)
	}
	var doc map[string]any
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("--json output is not JSON: %v", err)
	}
	sum, _ := doc["summary"].(map[string]any)
	for _, k := range []string{"seq_read_mb_s", "seq_write_mb_s", "rand_read_4k_iops", "rand_write_4k_iops"} {
		if _, ok := sum[k]; !ok {
			t.Errorf("summary lacks %s", k)
		}
	}
	if dev, _ := doc["device"].(map[string]any); dev["kind"] == nil || dev["name"] == nil {
		t.Errorf("device lacks kind or name: %v", dev)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind in %s: %v", dir, ents)
	}
	var text bytes.Buffer
	runtext.Render(&text, r, false)
	if len(figs.Latency) != 4 {
		t.Errorf("latency cells %+v, want QD1 and QD32 reads and writes", figs.Latency)
	}
	for _, want := range []string{"Storage device", "reclen", "random write", "16384", "KiB/s (1 KiB = 1024 bytes)", "p99.9 µs"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("report lacks %q", want)
		}
	}
}

// TestSeveralDevicesAtOnce measures two loop-device file systems at the
// same time: the result holds each device's table and their sum.
func TestSeveralDevicesAtOnce(t *testing.T) {
	a, _ := loopfs.Make(t, 256<<20)
	b, _ := loopfs.Make(t, 256<<20)
	out := filepath.Join(t.TempDir(), "storage.json")
	if _, stderr, err := execute(t, "--short", "-o", out, a, b); err != nil && cmdutil.ExitCode(err) != 3 {
		t.Fatalf("%v\n%s", err, stderr)
	}
	r, err := result.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	var figs result.StorageFigures
	if err := json.Unmarshal(r.Phases[0].Figures, &figs); err != nil {
		t.Fatal(err)
	}
	if len(figs.Devices) != 2 || figs.Devices[0].Path != a || figs.Devices[1].Path != b || r.Device != nil {
		t.Fatalf("devices %+v (result device %v), want %s and %s", figs.Devices, r.Device, a, b)
	}
	for i, row := range figs.Table {
		x, y := figs.Devices[0].Figures.Table[i].ReadKBs, figs.Devices[1].Figures.Table[i].ReadKBs
		if row.ReadKBs == nil || x == nil || y == nil || *row.ReadKBs != *x+*y {
			t.Errorf("%d KiB read: sum %v of %v and %v", row.RecordKiB, row.ReadKBs, x, y)
		}
	}
	for _, d := range []string{a, b} {
		if ents, _ := os.ReadDir(d); len(ents) != 0 {
			t.Errorf("left behind in %s: %v", d, ents)
		}
	}
	var text bytes.Buffer
	runtext.Render(&text, r, false)
	if !strings.Contains(text.String(), "2 devices measured at the same time") {
		t.Errorf("the report does not say the devices ran at once:\n%s", text.String())
	}
}

// TestSustainedAndCapacity runs both modes on a small loop-device file
// system: the sustained writes stop at SIZE or at a fall, the capacity
// check finds every block; nothing is left.
func TestSustainedAndCapacity(t *testing.T) {
	mnt, _ := loopfs.Make(t, 256<<20)
	out := filepath.Join(t.TempDir(), "s.json")
	// Exit 3 (measured, judged not valid) is what a loaded machine gives.
	if _, stderr, err := execute(t, "--sustained", "128M", "-o", out, mnt); err != nil && cmdutil.ExitCode(err) != 3 {
		t.Fatalf("%v\n%s", err, stderr)
	}
	r, err := result.Load(out)
	if err != nil {
		t.Fatal(err)
	}
	var s result.StorageSustainedFigures
	if len(r.Phases) != 1 || r.Phases[0].Name != result.PhaseStorageSustained || json.Unmarshal(r.Phases[0].Figures, &s) != nil {
		t.Fatalf("phases %+v", r.Phases)
	}
	if s.StoppedBy != "size" && s.StoppedBy != "fall" || s.WindowBytes != 16<<20 || len(s.Windows) == 0 {
		t.Errorf("sustained %+v", s)
	}
	if _, stderr, err := execute(t, "--verify-capacity", "-o", out, mnt); err != nil && cmdutil.ExitCode(err) != 3 {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if r, err = result.Load(out); err != nil {
		t.Fatal(err)
	}
	var c result.StorageCapacityFigures
	if len(r.Phases) != 1 || r.Phases[0].Name != result.PhaseStorageCapacity || json.Unmarshal(r.Phases[0].Figures, &c) != nil {
		t.Fatalf("phases %+v", r.Phases)
	}
	if c.WrittenBytes < 128<<20 || c.OKBytes != c.WrittenBytes {
		t.Errorf("capacity %+v", c)
	}
	for _, f := range r.Findings {
		if f.ID == "storage-fake-capacity" {
			t.Errorf("an honest file system got %s", f.ID)
		}
	}
	if ents, _ := os.ReadDir(mnt); len(ents) != 0 {
		t.Errorf("left behind: %v", ents)
	}
}

// someBlockDevice returns a block device node of this machine.
func someBlockDevice(t *testing.T) string {
	names, _ := filepath.Glob("/sys/block/*")
	for _, n := range names {
		dev := "/dev/" + filepath.Base(n)
		if fi, err := os.Stat(dev); err == nil && fi.Mode()&os.ModeDevice != 0 {
			return dev
		}
	}
	t.Fatal("no block device node found under /dev")
	return ""
}

func TestRawDeviceRefused(t *testing.T) {
	dev := someBlockDevice(t)
	name := filepath.Base(dev)
	cases := [][]string{
		{dev},
		{dev, "--destructive", name + "x"},
		{dev, "--destructive", "/dev/other"},
	}
	for _, args := range cases {
		_, _, err := execute(t, args...)
		if err == nil || cmdutil.ExitCode(err) != 2 {
			t.Errorf("storage %v: error %v (exit %d), want a refusal with exit 2", args, err, cmdutil.ExitCode(err))
			continue
		}
		if !strings.Contains(err.Error(), dev) {
			t.Errorf("storage %v: %v does not name the device", args, err)
		}
	}
	// A mounted device is refused even with its name typed twice.
	if mounted(name) {
		_, _, err := execute(t, dev, "--destructive", name)
		if err == nil || !strings.Contains(err.Error(), "mounted") {
			t.Errorf("mounted %s: error %v, want a refusal", dev, err)
		}
	}
}

func mounted(name string) bool {
	data, _ := os.ReadFile("/proc/self/mounts")
	return strings.Contains(string(data), "/dev/"+name)
}

func TestFreeSpaceCheckedBeforeWriting(t *testing.T) {
	if os.Getuid() != 0 {
		t.Fatal("this test mounts a small tmpfs and needs root (CI runs as root)")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=40m", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("mount tmpfs: %v: %s", err, out)
	}
	defer exec.Command("umount", dir).Run()
	_, _, err := execute(t, "--short", dir)
	if err == nil || !strings.Contains(err.Error(), "not enough free space") {
		t.Fatalf("error %v, want the free-space error", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("written despite the error: %v", ents)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"/no/such/path"},
		{"--size", "lots", "."},
		{"--destructive", "sda", "."},
		{"--root", "/tmp", "."}, // storage measures the live machine: no --root
	} {
		_, _, err := execute(t, args...)
		if cmdutil.ExitCode(err) != 2 {
			t.Errorf("storage %v: %v (exit %d), want exit 2", args, err, cmdutil.ExitCode(err))
		}
	}
}

// TestRefusals: what is not storage, or a size that does not fit, is
// refused with one line and exit 2 before anything is written.
func TestRefusals(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"/dev/null"}, "/dev/null is a character device, not storage"},
		{[]string{"/proc"}, "kernel pseudo filesystem: not storage"},
		{[]string{"/sys/kernel"}, "(sysfs), a kernel pseudo filesystem"},
		{[]string{"/dev"}, "(devtmpfs), a kernel pseudo filesystem"},
		{[]string{"--size", "10T", t.TempDir()}, "MiB free"},
		{[]string{"--size", "abc", "."}, `"abc" is not a size`},
		{[]string{"--size", "1M", t.TempDir()}, "below the smallest test file"},
		{[]string{"--sustained", "10T", t.TempDir()}, "does not fit"},
		{[]string{"--sustained", "1M", t.TempDir()}, "below the smallest sustained-write size"},
		{[]string{"--sustained", "1G", "--verify-capacity", t.TempDir()}, "separate runs"},
		{[]string{"--verify-capacity", t.TempDir(), t.TempDir()}, "measure one path"},
		{[]string{t.TempDir(), t.TempDir()}, "same filesystem"},
	} {
		_, _, err := execute(t, tt.args...)
		if cmdutil.ExitCode(err) != 2 || err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("storage %v: %v (exit %d), want exit 2 and %q", tt.args, err, cmdutil.ExitCode(err), tt.want)
		}
	}
}

func TestNoRootFlag(t *testing.T) {
	if NewCmd(cmdutil.NewFactory(nil), nil).Flags().Lookup("root") != nil {
		t.Error("storage advertises --root, which it cannot honour")
	}
}

// TestNewCmdOptions: the command is testable without running anything:
// runF receives the parsed flags and paths as Options.
func TestNewCmdOptions(t *testing.T) {
	def := storagerun.Options{CellLimit: storagebench.DefaultCellLimit, Power: power.Options{IdleBaseline: power.DefaultIdleBaseline}}
	with := func(edit func(*storagerun.Options)) storagerun.Options { o := def; edit(&o); return o }
	tests := []struct {
		args   []string
		asJSON bool
		want   storagerun.Options
	}{
		{nil, false, def},
		{[]string{"--sustained", "2G", "--short", "/a", "/b"}, false, with(func(o *storagerun.Options) {
			o.SustainedText, o.Short, o.Paths = "2G", true, []string{"/a", "/b"}
		})},
		{[]string{"--json", "-o", "s.json", "--size", "256M", "--cell-time", "2s", "--fio", "--no-install", "--no-redact",
			"--clock", "600", "--power", "rpi-pmic", "--idle-baseline", "0", "/dev/sdz", "--destructive", "sdz"}, true,
			with(func(o *storagerun.Options) {
				o.Output, o.SizeText, o.CellLimit, o.Fio, o.NoInstall, o.NoRedact = "s.json", "256M", 2*time.Second, true, true, true
				o.ClockMHz, o.Power, o.Paths, o.Destructive = 600, power.Options{Spec: power.Spec{Kind: "rpi-pmic"}}, []string{"/dev/sdz"}, "sdz"
			})},
		{[]string{"--verify-capacity", "/media/card"}, false, with(func(o *storagerun.Options) {
			o.VerifyCapacity, o.Paths = true, []string{"/media/card"}
		})},
	}
	for _, tt := range tests {
		ios, _, _ := iostreams.Test()
		var got *Options
		cmd := NewCmd(cmdutil.NewFactory(ios), func(o *Options) error { got = o; return nil })
		cmd.SetArgs(tt.args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		if got.Paths == nil {
			got.Paths = []string{}
		}
		if tt.want.Paths == nil {
			tt.want.Paths = []string{}
		}
		if got.AsJSON != tt.asJSON || got.Factory == nil || !reflect.DeepEqual(got.Options, tt.want) {
			t.Errorf("%q: options %+v (json %v), want %+v (json %v)", tt.args, got.Options, got.AsJSON, tt.want, tt.asJSON)
		}
	}
}

// TestFioColonPathAndFailure: `storage DIR/2024-01-01T10:00 --fio` with the
// real fio leaves the sibling DIR/2024-01-01T10 alone and succeeds; a fio
// that exits with status 5 fails the fio phase and the command.
func TestFioColonPathAndFailure(t *testing.T) {
	if _, err := exec.LookPath("fio"); err != nil {
		need.Missing(t, "fio is not installed (apt install fio)")
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "2024-01-01T10:00")
	sibling := filepath.Join(parent, "2024-01-01T10")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sibling, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "storage.json")
	if _, stderr, err := execute(t, "--short", "--fio", "--no-install", "-o", out, dir); err != nil {
		t.Fatalf("storage --fio on %s: %v\n%s", dir, err, stderr)
	}
	if b, _ := os.ReadFile(sibling); string(b) != "keep" {
		t.Errorf("the sibling %s holds %d bytes, want it untouched", sibling, len(b))
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("left behind in %s: %v", dir, ents)
	}

	// A fio that fails.
	bin := t.TempDir()
	script := "#!/bin/sh\nif [ \"$1\" = --version ]; then echo fio-3.33; exit 0; fi\necho 'fio: something went wrong' >&2\nexit 5\n"
	if err := os.WriteFile(filepath.Join(bin, "fio"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	_, _, err := execute(t, "--short", "--fio", "--no-install", "-o", out, dir)
	if err == nil || !strings.Contains(err.Error(), "fio") || cmdutil.ExitCode(err) == 0 {
		t.Errorf("storage with a failing fio: %v, want an error naming fio", err)
	}
	r, lerr := result.Load(out)
	if lerr != nil {
		t.Fatal(lerr)
	}
	for _, ph := range r.Phases {
		if ph.Name == result.PhaseStorageFio && (ph.Status != result.StatusFailed || !strings.Contains(ph.Reason, "status 5")) {
			t.Errorf("fio phase %s: %q", ph.Status, ph.Reason)
		}
	}
}

// TestSweepsFioLeftovers: a SIGKILL during the fio phase leaves fio's
// hidden files; the next storage run in that directory removes those old
// enough, says so, and leaves a recent one (a run in progress) and files
// of other names alone.
func TestSweepsFioLeftovers(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	files := map[string]bool{ // name → swept
		".boardbench-fio-0123456789abcdef-16384k": true,
		".boardbench-fio-0123456789abcdef-4k":     true,
		".boardbench-fio-fedcba9876543210-4k":     false, // recent
		".boardbench-fio-notes":                   false, // not fio's name
	}
	for name, swept := range files {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, make([]byte, 4096), 0o600); err != nil {
			t.Fatal(err)
		}
		if swept || name == ".boardbench-fio-notes" {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	out := filepath.Join(t.TempDir(), "storage.json")
	_, stderr, err := execute(t, "--short", "-o", out, dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, swept := range files {
		_, err := os.Lstat(filepath.Join(dir, name))
		if gone := errors.Is(err, os.ErrNotExist); gone != swept {
			t.Errorf("%s: gone %v, want %v", name, gone, swept)
		}
	}
	if !strings.Contains(stderr, "removed 2 temporary file(s)") {
		t.Errorf("stderr does not say what was removed:\n%s", stderr)
	}
}

// TestLoopDeviceDestructive: `storage /dev/loopN --destructive loopN` on a
// loop device over a file of this test is not refused as "mounted on /"
// (the disk of its backing file), and runs; a mounted loop device is
// refused, naming its own mount point.
func TestLoopDeviceDestructive(t *testing.T) {
	if os.Getuid() != 0 {
		t.Fatal("this test attaches a loop device and needs root (CI runs as root)")
	}
	img := filepath.Join(t.TempDir(), "disk.img")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 256<<20); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("losetup", "-f", "--show", img).Output()
	if err != nil {
		t.Skipf("losetup: %v", err)
	}
	dev := strings.TrimSpace(string(out))
	defer exec.Command("losetup", "-d", dev).Run()
	name := filepath.Base(dev)
	_, stderr, err := execute(t, dev, "--destructive", name, "--short", "-o", filepath.Join(t.TempDir(), "s.json"))
	if err != nil {
		t.Errorf("storage %s --destructive %s: %v\n%s", dev, name, err, stderr)
	}
	if err := exec.Command("mkfs.ext4", "-q", dev).Run(); err != nil {
		t.Skipf("mkfs.ext4: %v", err)
	}
	mnt := t.TempDir()
	if err := exec.Command("mount", dev, mnt).Run(); err != nil {
		t.Skipf("mount: %v", err)
	}
	defer exec.Command("umount", mnt).Run()
	_, _, err = execute(t, dev, "--destructive", name, "--short")
	if err == nil || !strings.Contains(err.Error(), "mounted on "+mnt) {
		t.Errorf("mounted %s: %v, want a refusal naming %s", dev, err, mnt)
	}
}
