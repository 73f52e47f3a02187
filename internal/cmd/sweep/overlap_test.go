package sweep

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
	"boardbench/internal/proc"
	"boardbench/internal/testutil/fixture"
	"boardbench/internal/tune"
)

// signalWriter closes ch on its first write (a waiting lock's notice).
type signalWriter struct {
	once sync.Once
	ch   chan struct{}
	mu   sync.Mutex
	buf  strings.Builder
}

func (w *signalWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.buf.Write(p)
	w.mu.Unlock()
	w.once.Do(func() { close(w.ch) })
	return len(p), nil
}

// TestSweepOverlapping runs two sweeps on one writable fixture root at
// once, as the command does (tuning lock of the root first, handed to the
// guard). The first is held inside its first 7-Zip run, clocks pinned;
// a third start without --wait is refused with the holder's pid (exit
// status 2); the second, with --wait, waits and only then saves the
// clocks. At the end every file of the root is byte-identical to the
// start, and no state file or lock is left. Without the lock the second
// sweep saved the first one's pinned clocks as "previous" and put them
// back last.
func TestSweepOverlapping(t *testing.T) {
	t.Setenv(tune.StateDirEnv, "") // the state files and lock inside the root
	root := quadA53(t)
	before := fixture.Snapshot(t, root)
	ctx := context.Background()

	cfgA, exA := fixtureConfig(t, root)
	measuring, release := make(chan struct{}), make(chan struct{})
	var once sync.Once
	exA.hook = func(ctx context.Context, c proc.Command) (proc.Result, error, bool) {
		once.Do(func() {
			close(measuring)
			<-release
		})
		return proc.Result{}, nil, false
	}
	lockA, err := tune.AcquireRootLock(ctx, root, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfgA.Lock = lockA
	errs := make(chan error, 2)
	go func() {
		_, err := Run(ctx, cfgA, Options{Output: filepath.Join(t.TempDir(), "a.json"), Force: true})
		errs <- err
	}()
	<-measuring
	if pinnedKHz(cfgA.Host) != 1000000 {
		t.Errorf("the first sweep has not pinned its first clock")
	}

	// Without --wait: refused, naming the holder.
	_, err = tune.AcquireRootLock(ctx, root, false, nil)
	var busy *tune.BusyError
	if !errors.As(err, &busy) || cmdutil.ExitCode(err) != 2 || busy.Holder.PID != os.Getpid() ||
		!strings.Contains(err.Error(), "pid ") || strings.Contains(err.Error(), "\n") {
		t.Errorf("second tuning run without --wait: %v (exit %d), want a one-line refusal naming pid %d", err, cmdutil.ExitCode(err), os.Getpid())
	}

	// With --wait: it waits for the first.
	cfgB, exB := fixtureConfig(t, root)
	bMeasuring := make(chan struct{})
	var onceB sync.Once
	exB.hook = func(ctx context.Context, c proc.Command) (proc.Result, error, bool) {
		onceB.Do(func() { close(bMeasuring) })
		return proc.Result{}, nil, false
	}
	notice := &signalWriter{ch: make(chan struct{})}
	go func() {
		lockB, err := tune.AcquireRootLock(ctx, root, true, notice)
		if err != nil {
			errs <- err
			return
		}
		cfgB.Lock = lockB
		_, err = Run(ctx, cfgB, Options{Output: filepath.Join(t.TempDir(), "b.json"), Force: true})
		errs <- err
	}()
	select {
	case <-notice.ch:
	case <-bMeasuring:
		t.Error("the second sweep measured while the first held the clocks pinned")
	}
	close(release)
	for range 2 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if !strings.Contains(notice.buf.String(), "waiting for the tuning run") {
		t.Errorf("waiting notice %q", notice.buf.String())
	}
	if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
		t.Errorf("after two overlapping sweeps the root differs:\n%v\nwant\n%v", after, before)
	}
	if _, err := os.Lstat(filepath.Join(root, "run")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ROOT/run left behind: %v", err)
	}
}

// TestSweepRefusesLeftovers: a state file a killed run left in the root's
// state directory makes sweep refuse before measuring, as run does (its
// "previous" values would be the pinned ones); the fixture is untouched.
func TestSweepRefusesLeftovers(t *testing.T) {
	t.Setenv(tune.StateDirEnv, "")
	root := quadA53(t)
	writeLeftover(t, root)
	before := fixture.Snapshot(t, root)
	ios, _, _ := iostreams.Test()
	cmd := NewCmd(cmdutil.NewFactory(ios))
	cmd.SetFlagErrorFunc(cmdutil.FlagErrorFunc)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	out := filepath.Join(t.TempDir(), "sweep.json")
	cmd.SetArgs([]string{"--root", root, "--no-install", "-o", out})
	err := cmd.Execute()
	if err == nil || !strings.Contains(err.Error(), "boardbench restore --root "+root) {
		t.Errorf("sweep over a leftover state file: %v, want a refusal naming restore", err)
	}
	if _, serr := os.Stat(out); serr == nil {
		t.Error("a result was written although sweep refused")
	}
	if after := fixture.Snapshot(t, root); !reflect.DeepEqual(after, before) {
		t.Error("the fixture changed")
	}
}

// writeLeftover writes the state file a killed sweep on root leaves in
// root's state directory (a process that no longer runs).
func writeLeftover(t *testing.T, root string) {
	t.Helper()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Skip(err)
	}
	dir, _ := tune.LockDirFor(root)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	sf := fmt.Sprintf(`{"version": %d, "pid": %d, "root": %q, "command": ["boardbench", "sweep"], "started": "2024-01-01T10:00:00Z",
		"saved": {"policies": [{"policy": 0, "dir": "/sys/devices/system/cpu/cpufreq/policy0", "governor": "ondemand\n", "scaling_min_freq": "600000\n", "scaling_max_freq": "1000000\n"}]}}`,
		tune.StateFileVersion, dead.Process.Pid, root)
	if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("tune-%d.json", dead.Process.Pid)), []byte(sf), 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestSweepWaitsThenRefusesLeftovers: a sweep waiting for the lock
// (--wait) looks for leftovers only once it holds the lock. The run it
// waited for was killed meanwhile and left its state file: the waiting
// sweep refuses, naming restore, writes nothing and changes nothing (it
// used to pass the check before waiting and measure from the pinned
// clocks).
func TestSweepWaitsThenRefusesLeftovers(t *testing.T) {
	t.Setenv(tune.StateDirEnv, "")
	root := quadA53(t)
	held, err := tune.AcquireRootLock(context.Background(), root, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	before := fixture.Snapshot(t, root)
	ios, _, _ := iostreams.Test()
	notice := &signalWriter{ch: make(chan struct{})}
	ios.ErrOut = notice
	cmd := NewCmd(cmdutil.NewFactory(ios))
	cmd.SetFlagErrorFunc(cmdutil.FlagErrorFunc)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	out := filepath.Join(t.TempDir(), "sweep.json")
	cmd.SetArgs([]string{"--root", root, "--no-install", "--wait", "-o", out})
	done := make(chan error, 1)
	go func() { done <- cmd.Execute() }()
	select {
	case <-notice.ch:
	case err := <-done:
		t.Fatalf("sweep --wait ended without waiting: %v", err)
	}
	// The holder "dies" with its clocks pinned: its state file stays.
	writeLeftover(t, root)
	held.Release()
	err = <-done
	if err == nil || !strings.Contains(err.Error(), "boardbench restore --root "+root) {
		t.Errorf("sweep after waiting for a run that left its state: %v, want a refusal naming restore", err)
	}
	if _, serr := os.Stat(out); serr == nil {
		t.Error("a result was written although sweep refused")
	}
	// The state directory (lock, leftover state file) aside.
	after := fixture.Snapshot(t, root)
	for _, m := range []map[string]string{before, after} {
		for p := range m {
			if strings.HasPrefix(p, "/run/") {
				delete(m, p)
			}
		}
	}
	if !reflect.DeepEqual(after, before) {
		t.Errorf("the fixture changed:\n%v\nwant\n%v", after, before)
	}
}
