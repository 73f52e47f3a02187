package tune

import (
	"boardbench/internal/interrupt"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"boardbench/internal/testutil/fixture"
	"boardbench/internal/testutil/wait"
)

// deadPID returns the id of a process that has run and been reaped.
func deadPID(t *testing.T) int {
	t.Helper()
	c := exec.Command("true")
	if err := c.Run(); err != nil {
		t.Skipf("cannot run true: %v", err)
	}
	return c.Process.Pid
}

func TestGuardWritesStateFileBeforeFirstChange(t *testing.T) {
	root, h := machine(t)
	dir := filepath.Join(t.TempDir(), "state")
	before := fixture.Snapshot(t, root)
	g, _, err := NewGuard(context.Background(), h, WithStateDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	// Before any change the state directory holds the tuning lock only.
	if names, err := os.ReadDir(dir); err != nil || len(names) != 1 || names[0].Name() != LockFileName {
		t.Errorf("state directory before any change: %v, %v; want the lock only", names, err)
	}
	if err := g.SetGovernor(0, "performance"); err != nil {
		t.Fatal(err)
	}
	path := g.StatePath()
	if want := filepath.Join(dir, "tune-"+itoa(os.Getpid())+".json"); path != want {
		t.Fatalf("StatePath = %q, want %q", path, want)
	}
	sf, err := ReadStateFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if sf.PID != os.Getpid() || sf.Root != root || len(sf.Command) == 0 || sf.Started.IsZero() || sf.ProcStart == 0 {
		t.Errorf("state file header = %+v", sf)
	}
	want := []SavedValue{
		{"/sys/devices/system/cpu/cpufreq/policy0/scaling_governor", "schedutil\n"},
		{"/sys/devices/system/cpu/cpufreq/policy0/scaling_min_freq", "408000\n"},
		{"/sys/devices/system/cpu/cpufreq/policy0/scaling_max_freq", "1800000\n"},
	}
	if got := sf.Saved.Values(); !reflect.DeepEqual(got, want) {
		t.Errorf("saved after the first change = %v, want %v", got, want)
	}
	// Further paths are added; values stay the previous ones, not the
	// changed ones.
	if err := g.Pin(0, 600000); err != nil {
		t.Fatal(err)
	}
	if err := g.SetDevfreqGovernor("dmc", "performance"); err != nil {
		t.Fatal(err)
	}
	sf, err = ReadStateFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want = append(want,
		SavedValue{"/sys/class/devfreq/dmc/governor", "dmc_ondemand\n"},
		SavedValue{"/sys/class/devfreq/dmc/min_freq", "328000000\n"},
		SavedValue{"/sys/class/devfreq/dmc/max_freq", "2112000000\n"})
	if got := sf.Saved.Values(); !reflect.DeepEqual(got, want) {
		t.Errorf("saved after three changes = %v, want %v", got, want)
	}
	// No temporary file is left beside it (and the lock).
	if names, _ := os.ReadDir(dir); len(names) != 2 {
		t.Errorf("state directory holds %d entries, want 2", len(names))
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("state file still there after a complete restore: %v", err)
	}
	if g.StatePath() != "" {
		t.Errorf("StatePath after Close = %q", g.StatePath())
	}
	if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
		t.Errorf("after Close:\n%v\nwant\n%v", after, before)
	}
	// The lock made the state directory; its release removes it again.
	if _, err := os.Lstat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("state directory left after Close: %v", err)
	}
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestGuardRewindRemovesStateFileAndRecordsAgain(t *testing.T) {
	_, h := machine(t)
	dir := t.TempDir()
	g, _, err := NewGuard(context.Background(), h, WithStateDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := g.Pin(4, 408000); err != nil {
		t.Fatal(err)
	}
	path := g.StatePath()
	if err := g.Rewind(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("state file kept after a complete Rewind: %v", err)
	}
	if err := g.SetGovernor(0, "performance"); err != nil {
		t.Fatal(err)
	}
	sf, err := ReadStateFile(path)
	if err != nil {
		t.Fatalf("no state file after a change following Rewind: %v", err)
	}
	if len(sf.Saved.Policies) != 1 || sf.Saved.Policies[0].Policy != 0 {
		t.Errorf("saved policies after Rewind = %+v, want policy0 only", sf.Saved.Policies)
	}
}

func TestGuardRefusesChangeWhenStateCannotBeWritten(t *testing.T) {
	root, h := machine(t)
	before := fixture.Snapshot(t, root)
	notDir := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(notDir, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// A state directory that is a file: the Guard cannot even take the lock.
	if _, _, err := NewGuard(context.Background(), h, WithStateDir(notDir)); err == nil {
		t.Error("NewGuard with a file as state directory succeeded")
	}
	// The state file's place taken by a directory: the lock is there, the
	// record cannot be written.
	dir := t.TempDir()
	if err := os.Mkdir(stateFilePath(dir, os.Getpid()), 0o700); err != nil {
		t.Fatal(err)
	}
	g, _, err := NewGuard(context.Background(), h, WithStateDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := g.SetGovernor(0, "performance"); err == nil || !strings.Contains(err.Error(), "recording the previous tunables") {
		t.Errorf("SetGovernor with an unwritable state dir = %v, want a refusal", err)
	}
	if err := g.SetDevfreqGovernor("dmc", "performance"); err == nil {
		t.Error("SetDevfreqGovernor with an unwritable state dir succeeded")
	}
	if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
		t.Errorf("a change went through without its state file:\n%v", after)
	}
}

func TestGuardKeepsStateFileWhenRestoreFails(t *testing.T) {
	root, h := machine(t)
	dir := t.TempDir()
	g, _, err := NewGuard(context.Background(), h, WithStateDir(dir))
	if err != nil {
		t.Fatal(err)
	}
	if err := g.SetGovernor(0, "performance"); err != nil {
		t.Fatal(err)
	}
	gov := filepath.Join(root, "sys/devices/system/cpu/cpufreq/policy0/scaling_governor")
	if err := os.Remove(gov); err != nil {
		t.Fatal(err)
	}
	if err := g.Close(); err == nil {
		t.Fatal("Close succeeded although the governor could not be written back")
	}
	if _, err := ReadStateFile(g.StatePath()); err != nil {
		t.Errorf("state file gone after an incomplete restore: %v", err)
	}
}

func TestGuardRestoresOnEverySignal(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT} {
		t.Run(sig.String(), func(t *testing.T) {
			root, h := machine(t)
			dir := t.TempDir()
			before := fixture.Snapshot(t, root)
			// The program's signals reach the Guard as its parent's
			// cancellation (internal/interrupt), as in main.
			parent, stop := interrupt.NotifyContext(context.Background())
			defer stop()
			g, ctx, err := NewGuard(parent, h, WithStateDir(dir))
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			started := make(chan struct{})
			walked := make(chan error, 1)
			go func() { walked <- fakeWalk(ctx, g, started) }()
			<-started
			path := g.StatePath()
			if _, err := ReadStateFile(path); err != nil {
				t.Fatalf("no state file during the walk: %v", err)
			}
			if err := syscall.Kill(os.Getpid(), sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-walked:
			case <-time.After(wait.HangGuard):
				t.Fatalf("hung: the walk did not stop after %v", sig)
			}
			if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
				t.Errorf("after %v:\n%v\nwant\n%v", sig, after, before)
			}
			if want := interrupt.NameOf(sig); interrupt.Name(ctx) != want {
				t.Errorf("the Guard's context names %q, want %q", interrupt.Name(ctx), want)
			}
			if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("state file left after %v: %v", sig, err)
			}
		})
	}
}

func TestReadStateFileRefusesBadInput(t *testing.T) {
	dir := t.TempDir()
	good := `{"version":1,"pid":12,"root":"/","command":["boardbench"],"saved":{"policies":[]}}`
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(write("target", good), link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, path, want string
	}{
		{"fifo", fifo, "not a regular file"},
		{"directory", t.TempDir(), "not a regular file"},
		{"link", link, "too many levels"},
		{"huge", write("huge", `{"version":1,"pid":1,"root":"/","command":["`+strings.Repeat("a", 2<<20)+`"]}`), "larger than"},
		{"garbage", write("garbage", "\x00\x01not json"), "not a boardbench state file"},
		{"version", write("version", strings.Replace(good, `"version":1`, `"version":9`, 1)), "unknown version 9"},
		{"no root", write("noroot", strings.Replace(good, `"root":"/"`, `"root":"x"`, 1)), "no process id or root"},
		{"missing", filepath.Join(dir, "missing"), "no such file"},
	}
	for _, tt := range tests {
		done := make(chan error, 1)
		go func() { _, err := ReadStateFile(tt.path); done <- err }()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("%s: ReadStateFile = %v, want %q", tt.name, err, tt.want)
			}
		case <-time.After(wait.HangGuard):
			t.Fatalf("%s: ReadStateFile blocked (hung)", tt.name)
		}
	}
	if sf, err := ReadStateFile(write("good", good)); err != nil || sf.PID != 12 {
		t.Errorf("good state file: %+v, %v", sf, err)
	}
}

func TestLeftovers(t *testing.T) {
	if got, err := Leftovers(filepath.Join(t.TempDir(), "missing")); got != nil || err != nil {
		t.Errorf("Leftovers of a missing dir = %v, %v", got, err)
	}
	dir := t.TempDir()
	self, ok := procStart(os.Getpid())
	if !ok {
		t.Skip("no /proc/PID/stat")
	}
	dead := deadPID(t)
	t0 := time.Date(2024, 1, 1, 10, 0, 0, 0, time.UTC)
	mk := func(pid int, ticks uint64, started time.Time) StateFile {
		return StateFile{Version: StateFileVersion, PID: pid, ProcStart: ticks, Started: started, Root: "/", Command: []string{"boardbench", "run"},
			Saved: State{Policies: []PolicyState{{Policy: 0, Dir: "/sys/devices/system/cpu/cpufreq/policy0", Governor: "schedutil\n"}}}}
	}
	files := map[string]StateFile{
		"tune-1.json": mk(os.Getpid(), self, t0),                   // this process: running
		"tune-2.json": mk(dead, 0, t0.Add(time.Hour)),              // gone, the newest
		"tune-3.json": mk(os.Getpid(), self+1, t0.Add(-time.Hour)), // id reused by another process
	}
	for name, sf := range files {
		if err := writeStateFile(filepath.Join(dir, name), sf); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "tune-4.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "other.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := Leftovers(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, sf := range got {
		names = append(names, filepath.Base(sf.Path))
	}
	// The newest first; the unreadable one last.
	if want := []string{"tune-2.json", "tune-3.json", "tune-4.json"}; !reflect.DeepEqual(names, want) {
		t.Fatalf("Leftovers = %v, want %v", names, want)
	}
	if got[2].Err == nil || got[0].Err != nil {
		t.Errorf("errors: %v, %v", got[0].Err, got[2].Err)
	}
	line := got[0].Describe()
	for _, part := range []string{"tune-2.json", "run `boardbench restore`"} {
		if !strings.Contains(line, part) || strings.Contains(line, "\n") {
			t.Errorf("Describe = %q, want one line with %q", line, part)
		}
	}
	if line := got[2].Describe(); !strings.Contains(line, "unusable") {
		t.Errorf("Describe of a broken file = %q", line)
	}
}

func TestStateDirFromEnvironment(t *testing.T) {
	t.Setenv(StateDirEnv, "")
	if got := StateDir(); got != DefaultStateDir {
		t.Errorf("StateDir() = %q, want %q", got, DefaultStateDir)
	}
	t.Setenv(StateDirEnv, "/tmp/elsewhere")
	if got := StateDir(); got != "/tmp/elsewhere" {
		t.Errorf("StateDir() = %q with %s set", got, StateDirEnv)
	}
}

// TestMain keeps the state files of every Guard made without WithStateDir
// out of the machine's /run/boardbench.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "tune-state-")
	if err != nil {
		panic(err)
	}
	os.Setenv(StateDirEnv, dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func TestStateDirFor(t *testing.T) {
	for _, tt := range []struct {
		env, root, want string
	}{
		{"", "/", DefaultStateDir},
		{"", "", DefaultStateDir},
		{"", "/tmp/fixture", "/tmp/fixture/run/boardbench"},
		{"", "/tmp/fixture/", "/tmp/fixture/run/boardbench"},
		{"/tmp/elsewhere", "/tmp/fixture", "/tmp/elsewhere"},
		{"/tmp/elsewhere", "/", "/tmp/elsewhere"},
	} {
		t.Setenv(StateDirEnv, tt.env)
		if got := StateDirFor(tt.root); got != tt.want {
			t.Errorf("StateDirFor(%q) with $%s=%q = %q, want %q", tt.root, StateDirEnv, tt.env, got, tt.want)
		}
	}
}

// TestGuardStateInsideRoot: without $BOARDBENCH_STATE_DIR, a Guard on a
// fixture root keeps its state file in ROOT/run/boardbench, and refuses to
// change anything when ROOT/run is a link that leads out of the root.
func TestGuardStateInsideRoot(t *testing.T) {
	t.Setenv(StateDirEnv, "")
	const p = "/sys/module/pcie_aspm/parameters/policy"
	files := map[string]string{p: "default performance [powersave]\n"}

	root := fixture.Root(t, files)
	g, _, err := NewGuard(context.Background(), fixture.Open(t, root), WithFilesOnly())
	if err != nil {
		t.Fatal(err)
	}
	if err := g.SetFile(p, "default"); err != nil {
		t.Fatal(err)
	}
	if dir := filepath.Dir(g.StatePath()); dir != filepath.Join(root, "run", "boardbench") {
		t.Errorf("state file %s, want it in ROOT/run/boardbench", g.StatePath())
	}
	if err := g.Close(); err != nil {
		t.Fatal(err)
	}

	outside := t.TempDir()
	linked := fixture.Root(t, files)
	if err := os.Symlink(outside, filepath.Join(linked, "run")); err != nil {
		t.Fatal(err)
	}
	// Refused from the start: the tuning lock would be taken through the
	// link.
	if g, _, err := NewGuard(context.Background(), fixture.Open(t, linked), WithFilesOnly()); err == nil {
		if err := g.SetFile(p, "default"); err == nil {
			t.Error("SetFile succeeded with ROOT/run a link out of the root")
		}
		g.Close()
	}
	if left, _ := filepath.Glob(filepath.Join(outside, "*", "*")); len(left) != 0 {
		t.Errorf("files written through the link: %v", left)
	}
	if b, _ := os.ReadFile(filepath.Join(linked, p)); !strings.Contains(string(b), "[powersave]") {
		t.Errorf("policy changed to %q without a record", b)
	}
}
