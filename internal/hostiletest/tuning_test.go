package hostiletest_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"boardbench/internal/tune"
)

// TestTuningLockHostile: `review --apply` on a fixture root whose tuning
// lock is held by another run refuses in one line naming that run's pid
// (exit 2) and changes nothing; a lock file replaced by a FIFO or by a
// link out of the root is refused at once, nothing is written through it.
func TestTuningLockHostile(t *testing.T) {
	t.Setenv(tune.StateDirEnv, "")
	const aspm = "sys/module/pcie_aspm/parameters/policy"
	fresh := func(t *testing.T) string {
		r := filepath.Join(t.TempDir(), "root")
		copyTree(t, "../../testdata/boards/rock5b", r, "", "sys/devices/platform")
		return r
	}
	read := func(t *testing.T, p string) string {
		b, err := os.ReadFile(p)
		must(t, err)
		return string(b)
	}

	t.Run("held", func(t *testing.T) {
		r := fresh(t)
		was := read(t, filepath.Join(r, aspm))
		l, err := tune.AcquireRootLock(context.Background(), r, false, nil)
		must(t, err)
		defer l.Release()
		_, stderr, code := run(t, "review", "--root", r, "--apply", "--", "true")
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "pid "+strconv.Itoa(os.Getpid())) || !strings.Contains(stderr, "--wait") {
			t.Errorf("review --apply while the lock is held: exit %d, stderr %q", code, stderr)
		}
		if now := read(t, filepath.Join(r, aspm)); now != was {
			t.Errorf("ASPM policy changed to %q", now)
		}
	})
	// On the live machine review --apply -- CMD runs its command under
	// monitoring: a held lock is still a refusal before anything runs
	// (one line, exit 2), no result file written, nothing stored.
	t.Run("held, live, with a command", func(t *testing.T) {
		t.Setenv(tune.StateDirEnv, t.TempDir())
		cwd := t.TempDir()
		t.Chdir(cwd)
		store := filepath.Join(t.TempDir(), "store.db")
		t.Setenv("BOARDBENCH_STORE", store)
		l, err := tune.AcquireRootLock(context.Background(), "/", false, nil)
		must(t, err)
		defer l.Release()
		stdout, stderr, code := run(t, "review", "--apply", "--", "true")
		if code != 2 || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "pid "+strconv.Itoa(os.Getpid())) || stdout != "" {
			t.Errorf("live review --apply -- true while the lock is held: exit %d, stdout %q, stderr %q", code, stdout, stderr)
		}
		if left, _ := os.ReadDir(cwd); len(left) != 0 {
			t.Errorf("files written by a refused run: %v", left)
		}
		if _, err := os.Lstat(store); !os.IsNotExist(err) {
			t.Errorf("store created by a refused run: %v", err)
		}
	})
	for name, mk := range map[string]func(t *testing.T, lock string){
		"fifo": func(t *testing.T, lock string) { must(t, syscall.Mkfifo(lock, 0o600)) },
		"link out": func(t *testing.T, lock string) {
			must(t, os.Symlink(newSecrets(t).file, lock))
		},
	} {
		t.Run(name, func(t *testing.T) {
			r := fresh(t)
			dir, _ := tune.LockDirFor(r)
			must(t, os.MkdirAll(dir, 0o700))
			lock := filepath.Join(dir, tune.LockFileName)
			mk(t, lock)
			was := read(t, filepath.Join(r, aspm))
			_, stderr, code := run(t, "review", "--root", r, "--apply", "--", "true")
			if code == 0 || strings.Count(stderr, "\n") != 1 || strings.Contains(stderr, marker) {
				t.Errorf("exit %d, stderr %q", code, stderr)
			}
			if now := read(t, filepath.Join(r, aspm)); now != was {
				t.Errorf("ASPM policy changed to %q", now)
			}
			if st, err := os.Lstat(lock); err != nil || st.Mode().IsRegular() {
				t.Errorf("lock file replaced: %v, %v", st, err)
			}
		})
	}
}
