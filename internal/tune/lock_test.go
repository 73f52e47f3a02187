package tune

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"boardbench/internal/testutil/fixture"
)

// lockHolderEnv makes the test binary take the tuning lock in the
// directory it names, say "locked" and block (until killed).
const lockHolderEnv = "BOARDBENCH_TEST_LOCK_HOLDER"

func TestLockHolderProcess(t *testing.T) {
	dir := os.Getenv(lockHolderEnv)
	if dir == "" {
		t.Skip("helper process")
	}
	if _, err := AcquireLock(context.Background(), dir, LockOptions{}); err != nil {
		os.Stdout.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	os.Stdout.WriteString("locked\n")
	select {}
}

// TestLockStaleAfterSIGKILL: a holder killed with SIGKILL keeps no lock (the
// kernel drops it); its lock file, naming the dead process, is simply
// locked again.
func TestLockStaleAfterSIGKILL(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	cmd := exec.Command(os.Args[0], "-test.run=^TestLockHolderProcess$")
	cmd.Env = append(os.Environ(), lockHolderEnv+"="+dir)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, _ := bufio.NewReader(out).ReadString('\n')
	if line != "locked\n" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("holder: %q", line)
	}
	_, err = AcquireLock(context.Background(), dir, LockOptions{})
	var busy *BusyError
	if !errors.As(err, &busy) || busy.Holder.PID != cmd.Process.Pid || !strings.Contains(err.Error(), "TestLockHolderProcess") {
		t.Errorf("while the holder runs: %v, want a refusal naming pid %d and its command", err, cmd.Process.Pid)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	if _, err := os.Lstat(filepath.Join(dir, LockFileName)); err != nil {
		t.Fatalf("the killed holder's lock file: %v", err)
	}
	l, err := AcquireLock(context.Background(), dir, LockOptions{})
	if err != nil {
		t.Fatalf("after the holder was killed: %v", err)
	}
	l.Release()
	l.Release()
	if _, err := os.Lstat(filepath.Join(dir, LockFileName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file after Release: %v", err)
	}
}

// TestLockWaitCancelled: a waiting AcquireLock says once whom it waits for
// and gives up when its context is done.
func TestLockWaitCancelled(t *testing.T) {
	dir := t.TempDir()
	held, err := AcquireLock(context.Background(), dir, LockOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	ctx, cancel := context.WithCancel(context.Background())
	var notice strings.Builder
	w := writerFunc(func(p []byte) (int, error) {
		notice.Write(p)
		cancel()
		return len(p), nil
	})
	if _, err := AcquireLock(ctx, dir, LockOptions{Wait: true, Notify: w}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled wait: %v", err)
	}
	if n := strings.Count(notice.String(), "\n"); n != 1 || !strings.Contains(notice.String(), "pid ") {
		t.Errorf("notice %q, want one line naming the holder", notice.String())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// TestLockRefusesSpecialFiles: a lock file that is a link, a FIFO or a
// directory is refused at once, without following or blocking; a state
// directory reached through a link out of a fixture root too.
func TestLockRefusesSpecialFiles(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "target")
	if err := os.WriteFile(outside, []byte("keep"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, mk := range map[string]func(p string) error{
		"link":      func(p string) error { return os.Symlink(outside, p) },
		"fifo":      func(p string) error { return syscall.Mkfifo(p, 0o600) },
		"directory": func(p string) error { return os.Mkdir(p, 0o700) },
	} {
		dir := t.TempDir()
		if err := mk(filepath.Join(dir, LockFileName)); err != nil {
			t.Fatal(err)
		}
		if l, err := AcquireLock(context.Background(), dir, LockOptions{}); err == nil {
			l.Release()
			t.Errorf("%s: lock taken", name)
		}
	}
	if b, _ := os.ReadFile(outside); string(b) != "keep" {
		t.Errorf("link target changed: %q", b)
	}
	t.Setenv(StateDirEnv, "")
	root := t.TempDir()
	if err := os.Symlink(filepath.Dir(outside), filepath.Join(root, "run")); err != nil {
		t.Fatal(err)
	}
	dir, confine := LockDirFor(root)
	if _, err := AcquireLock(context.Background(), dir, LockOptions{ConfineTo: confine}); err == nil {
		t.Error("lock taken through ROOT/run, a link out of the root")
	}
	if _, err := os.Lstat(filepath.Join(filepath.Dir(outside), "boardbench")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("written through the link: %v", err)
	}
}

// TestGuardKeepsHandedLockWhenNothingToTune: a machine without cpufreq or
// devfreq gives no Guard, but the lock its caller handed over stays held
// until the caller releases it (run measures on, untuned, under the lock).
func TestGuardKeepsHandedLockWhenNothingToTune(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	l, err := AcquireLock(context.Background(), dir, LockOptions{})
	if err != nil {
		t.Fatal(err)
	}
	h := fixture.Open(t, t.TempDir())
	t.Setenv(StateDirEnv, dir)
	if g, _, err := NewGuard(context.Background(), h, WithLock(l)); err == nil {
		g.Close()
		t.Fatal("NewGuard on an empty machine succeeded")
	}
	var busy *BusyError
	if _, err := AcquireLock(context.Background(), dir, LockOptions{}); !errors.As(err, &busy) {
		t.Fatalf("after the failed NewGuard, another AcquireLock: %v, want a *BusyError (the caller still holds the lock)", err)
	}
	l.Release()
	if _, err := os.Lstat(filepath.Join(dir, LockFileName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock file after Release: %v, want it removed", err)
	}
	l2, err := AcquireLock(context.Background(), dir, LockOptions{})
	if err != nil {
		t.Fatalf("after Release: %v", err)
	}
	l2.Release()
}

// TestCommandLock: a command's tuning lock is taken on a free root, refused
// with a *BusyError while another run holds it, and nil without an error
// where the lock file cannot even be created (the guard then reports what
// it cannot change).
func TestCommandLock(t *testing.T) {
	t.Setenv(StateDirEnv, "")
	tests := []struct {
		name     string
		setup    func(t *testing.T, root string)
		wantLock bool
		wantBusy bool
	}{
		{"free", func(*testing.T, string) {}, true, false},
		{"held by another run", func(t *testing.T, root string) {
			l, err := AcquireRootLock(context.Background(), root, false, nil)
			if err != nil || l == nil {
				t.Fatalf("first lock: %v", err)
			}
			t.Cleanup(l.Release)
		}, false, true},
		{"lock file cannot be created", func(t *testing.T, root string) {
			first := strings.Split(strings.TrimPrefix(filepath.ToSlash(RootStateDir), "/"), "/")[0]
			if err := os.WriteFile(filepath.Join(root, first), []byte("a file, not a directory"), 0o644); err != nil {
				t.Fatal(err)
			}
		}, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			tt.setup(t, root)
			l, err := CommandLock(context.Background(), root, false, nil)
			defer l.Release()
			var busy *BusyError
			if (l != nil) != tt.wantLock || errors.As(err, &busy) != tt.wantBusy || (err != nil && !tt.wantBusy) {
				t.Errorf("lock %v, err %v; want lock %v, busy %v", l, err, tt.wantLock, tt.wantBusy)
			}
		})
	}
}
