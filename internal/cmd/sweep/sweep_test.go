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
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/iostreams"
	"boardbench/internal/sweeprun"
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

// TestNewCmdOptions: the flags reach the run function as Options, with
// --quick's shorter settle and single pass applied, without measuring
// anything.
func TestNewCmdOptions(t *testing.T) {
	tests := []struct {
		args       []string
		wantSettle time.Duration
		wantQuick  bool
		wantRoot   string
		wantPasses int
	}{
		{nil, 5 * time.Second, false, "/", 3},
		{[]string{"--quick"}, time.Second, true, "/", 1},
		{[]string{"--passes", "5"}, 5 * time.Second, false, "/", 5},
		{[]string{"--quick", "--passes", "2"}, time.Second, true, "/", 2},
		{[]string{"--quick", "--settle", "3s", "--root", "/x", "--wait", "--json"}, 3 * time.Second, true, "/x", 1},
	}
	for _, tt := range tests {
		ios, _, _ := iostreams.Test()
		var got *Options
		cmd := NewCmd(cmdutil.NewFactory(ios), func(o *Options) error { got = o; return nil })
		cmd.SetArgs(tt.args)
		if err := cmd.Execute(); err != nil {
			t.Fatalf("%q: %v", tt.args, err)
		}
		if got == nil || got.Sweep.Settle != tt.wantSettle || got.Sweep.Quick != tt.wantQuick || got.Root != tt.wantRoot || got.Sweep.Passes != tt.wantPasses {
			t.Errorf("%q: options %+v", tt.args, got)
		}
	}
}

// TestPassesOutOfRange: --passes below 1 or above MaxPasses is a usage
// error (exit 2) before anything runs.
func TestPassesOutOfRange(t *testing.T) {
	for _, arg := range []string{"0", "-1", fmt.Sprint(sweeprun.MaxPasses + 1)} {
		ios, _, _ := iostreams.Test()
		ran := false
		cmd := NewCmd(cmdutil.NewFactory(ios), func(*Options) error { ran = true; return nil })
		cmd.SetArgs([]string{"--passes", arg})
		cmd.SilenceErrors, cmd.SilenceUsage = true, true
		err := cmd.Execute()
		if err == nil || cmdutil.ExitCode(err) != 2 || !strings.Contains(err.Error(), "--passes") || ran {
			t.Errorf("--passes %s: err %v (exit %d), ran %v", arg, err, cmdutil.ExitCode(err), ran)
		}
	}
}

// TestRefusesBeforeTakingTheLock: a sweep that cannot be measured here
// (no cpufreq) is refused at once, even while another tuning run holds
// the root's lock: it neither waits for the lock (--wait) nor reports the
// lock as busy.
func TestRefusesBeforeTakingTheLock(t *testing.T) {
	t.Setenv(tune.StateDirEnv, "")
	root := fixture.Root(t, map[string]string{
		"proc/cpuinfo":                    "processor\t: 0\nvendor_id\t: GenuineIntel\nmodel name\t: Test CPU\n\nprocessor\t: 1\nvendor_id\t: GenuineIntel\nmodel name\t: Test CPU\n\n",
		"proc/loadavg":                    "0.01 0.02 0.00 1/80 999\n",
		"sys/devices/system/cpu/possible": "0-1\n", "sys/devices/system/cpu/online": "0-1\n",
	})
	held, err := tune.AcquireRootLock(context.Background(), root, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	for _, wait := range []bool{false, true} {
		ios, _, _ := iostreams.Test()
		opts := &Options{Factory: cmdutil.NewFactory(ios), Ctx: context.Background(), Root: root, Wait: wait,
			Sweep: sweeprun.Options{NoInstall: true, Output: filepath.Join(t.TempDir(), "sweep.json")}}
		err := runSweep(opts)
		var busy *tune.BusyError
		if err == nil || errors.As(err, &busy) || !strings.Contains(err.Error(), "no cpufreq here") || cmdutil.ExitCode(err) != 2 {
			t.Errorf("wait %v: %v (exit %d), want the no-cpufreq refusal", wait, err, cmdutil.ExitCode(err))
		}
	}
}

// TestSweepRefusesLeftovers: a state file a killed run left in the root's
// state directory makes sweep refuse before measuring, as run does (its
// "previous" values would be the pinned ones); the fixture is untouched.
func TestSweepRefusesLeftovers(t *testing.T) {
	t.Setenv(tune.StateDirEnv, "")
	root := fixture.QuadA53(t)
	writeLeftover(t, root)
	before := fixture.Snapshot(t, root)
	ios, _, _ := iostreams.Test()
	cmd := NewCmd(cmdutil.NewFactory(ios), nil)
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
	root := fixture.QuadA53(t)
	held, err := tune.AcquireRootLock(context.Background(), root, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	before := fixture.Snapshot(t, root)
	ios, _, _ := iostreams.Test()
	notice := &signalWriter{ch: make(chan struct{})}
	ios.ErrOut = notice
	cmd := NewCmd(cmdutil.NewFactory(ios), nil)
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

// TestSettleHelpOneDefault: --help shows one default text for --settle,
// naming both the normal and the --quick pause.
func TestSettleHelpOneDefault(t *testing.T) {
	ios, stdout, _ := iostreams.Test()
	cmd := NewCmd(cmdutil.NewFactory(ios), nil)
	cmd.SetOut(stdout)
	cmd.SetArgs([]string{"--help"})
	if err := cmd.Execute(); err != nil {
		t.Fatal(err)
	}
	var line string
	for _, l := range strings.Split(stdout.String(), "\n") {
		if strings.Contains(l, "--settle") {
			line = l
		}
	}
	if strings.Count(line, "(default") != 1 || !strings.Contains(line, "(default 5s, 1s with --quick)") {
		t.Errorf("--settle help line %q", line)
	}
}
