package sweeprun

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"boardbench/internal/cmdutil"
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
	root := fixture.QuadA53(t)
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
