package tune

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"
)

// LockFileName is the name of the tuning lock in a state directory
// (StateDirFor the root): one lock per root for every boardbench process
// that tunes it (run, sweep, thermal, clock --opps, net --apply,
// review --apply).
const LockFileName = "tune.lock"

// maxLockFileBytes bounds the read of the holder's description.
const maxLockFileBytes = 64 << 10

// lockPoll is how often a waiting process retries the lock.
const lockPoll = 200 * time.Millisecond

// Lock is a held tuning lock: an flock(2) on LockFileName in the state
// directory of a root. The kernel releases it when the holder ends however
// it ends (a SIGKILLed holder leaves no stale lock: the file stays, naming
// a holder that no longer holds it, and the next process simply locks
// it). Release removes the file; the file says who holds the lock.
type Lock struct {
	mu   sync.Mutex
	f    *os.File
	path string
	// made are the directories the lock created (the deepest first); they
	// are removed on release when empty.
	made []string
}

// LockHolder is what the lock file says about the process holding it.
type LockHolder struct {
	PID     int       `json:"pid"`
	Command []string  `json:"command"`
	Started time.Time `json:"started"`
}

// BusyError is returned when another process holds the tuning lock of the
// root and the caller did not ask to wait. Its exit status is 2: a refusal
// before anything was measured or changed.
type BusyError struct {
	// Path is the lock file; Holder what it says about its holder (PID 0
	// when it could not be read).
	Path   string
	Holder LockHolder
}

// Error names the holder's pid and command in one line.
func (e *BusyError) Error() string {
	return fmt.Sprintf("another tuning run holds the tuning lock %s: %s; pass --wait to wait for it", e.Path, e.holderText())
}

// ExitCode makes a refusal exit with status 2.
func (e *BusyError) ExitCode() int { return 2 }

// oneLine keeps a command line printable on one line.
func oneLine(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return ' '
		}
		return r
	}, s)
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// LockOptions says how AcquireLock behaves when the lock is held.
type LockOptions struct {
	// Wait makes AcquireLock wait (until the context is done) instead of
	// returning a *BusyError.
	Wait bool
	// Notify, when set, is told once who holds the lock before waiting.
	Notify io.Writer
	// ConfineTo is a fixture root the state directory must stay inside
	// without a link ("" for none).
	ConfineTo string
}

// LockDirFor returns the state directory of root (StateDirFor) and the
// fixture root it must stay inside ("" for the live system or a directory
// given by StateDirEnv).
func LockDirFor(root string) (dir, confineTo string) {
	dir = StateDirFor(root)
	if os.Getenv(StateDirEnv) == "" && root != "" && filepath.Clean(root) != "/" {
		confineTo = root
	}
	return dir, confineTo
}

// CommandLock takes the tuning lock of root for a command that tunes it
// (AcquireRootLock), before it measures anything. While another run holds
// it, it returns the *BusyError (exit status 2) or, with wait, waits and
// says so on notify (the command's standard error). A process that cannot
// even create the lock file cannot write the state file either, so it can
// change nothing: then the lock is nil and the error too, and the
// command's guard reports what it cannot do. Release the lock with Release
// (nil-safe), or hand it to the guard with WithLock.
func CommandLock(ctx context.Context, root string, wait bool, notify io.Writer) (*Lock, error) {
	l, err := AcquireRootLock(ctx, root, wait, notify)
	var busy *BusyError
	if err != nil && !errors.As(err, &busy) && ctx.Err() == nil {
		return nil, nil
	}
	return l, err
}

// AcquireRootLock acquires the tuning lock of root (see LockDirFor and
// AcquireLock).
func AcquireRootLock(ctx context.Context, root string, wait bool, notify io.Writer) (*Lock, error) {
	dir, confine := LockDirFor(root)
	return AcquireLock(ctx, dir, LockOptions{Wait: wait, Notify: notify, ConfineTo: confine})
}

// AcquireLock takes the tuning lock in dir (created, mode 0700, when
// missing), then records this process in the lock file. The lock file is
// opened without following a final link and without blocking, and must be
// a regular file. When another process holds the lock it returns a
// *BusyError, or with opt.Wait retries until the lock is free or ctx is
// done (then ctx's error).
func AcquireLock(ctx context.Context, dir string, opt LockOptions) (*Lock, error) {
	if opt.ConfineTo != "" {
		if err := checkInsideRoot(opt.ConfineTo, dir); err != nil {
			return nil, fmt.Errorf("tuning lock: %w", err)
		}
	}
	path := filepath.Join(dir, LockFileName)
	told := false
	for {
		f, made, err := openLockFile(dir, path)
		if err != nil {
			return nil, err
		}
		err = flock(f)
		if err == nil {
			// The holder before removes the file when it lets go: a lock
			// taken on a removed file is no lock, so check it is still the
			// one at path.
			if sameFile(f, path) {
				l := &Lock{f: f, path: path, made: made}
				if err := l.record(); err != nil {
					l.Release()
					return nil, fmt.Errorf("tuning lock %s: %w", path, err)
				}
				return l, nil
			}
			f.Close()
			continue
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) {
			f.Close()
			return nil, fmt.Errorf("tuning lock %s: %w", path, err)
		}
		busy := &BusyError{Path: path, Holder: readHolder(f)}
		f.Close()
		if !opt.Wait {
			return nil, busy
		}
		if !told && opt.Notify != nil {
			fmt.Fprintf(opt.Notify, "boardbench: waiting for the tuning run that holds %s: %s\n", path, busy.holderText())
			told = true
		}
		t := time.NewTimer(lockPoll)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, fmt.Errorf("waiting for the tuning lock %s: %w", path, context.Cause(ctx))
		case <-t.C:
		}
	}
}

// openLockFile opens (creating) the lock file at path in dir, creating dir
// (mode 0700) when missing; made lists the directories it created, the
// deepest first. It refuses anything but a regular file, without following
// a final link or blocking on a FIFO.
func openLockFile(dir, path string) (f *os.File, made []string, err error) {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); !errors.Is(err, fs.ErrNotExist) || d == filepath.Dir(d) {
			break
		}
		made = append(made, d)
	}
	for range 3 {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, nil, fmt.Errorf("tuning lock: state directory: %w", err)
		}
		f, err = os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o600)
		// A releasing holder may remove the directory it made between the
		// two calls: make it again.
		if !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	if err != nil {
		return nil, nil, fmt.Errorf("tuning lock %s: %w", path, unwrapPath(err))
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		f.Close()
		if err == nil {
			err = errors.New("not a regular file")
		}
		return nil, nil, fmt.Errorf("tuning lock %s: %w", path, err)
	}
	return f, made, nil
}

// flock takes an exclusive flock on f without blocking, retrying EINTR.
func flock(f *os.File) error {
	for {
		err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// sameFile reports whether path still names the file open as f.
func sameFile(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(path)
	return err == nil && os.SameFile(a, b)
}

// holderText names the holder: "pid N (COMMAND)".
func (e *BusyError) holderText() string {
	if e.Holder.PID <= 0 {
		return "another boardbench process"
	}
	who := fmt.Sprintf("pid %d", e.Holder.PID)
	if len(e.Holder.Command) > 0 {
		who += " (" + oneLine(strings.Join(e.Holder.Command, " ")) + ")"
	}
	return who
}

// record writes this process's description into the held lock file.
func (l *Lock) record() error {
	sf := newStateFile("/")
	data, err := json.Marshal(LockHolder{PID: sf.PID, Command: sf.Command, Started: sf.Started})
	if err != nil {
		return err
	}
	if err := l.f.Truncate(0); err != nil {
		return err
	}
	_, err = l.f.WriteAt(append(data, '\n'), 0)
	return err
}

// readHolder reads who holds the lock from the lock file (a zero holder
// when it says nothing usable yet).
func readHolder(f *os.File) LockHolder {
	data, err := io.ReadAll(io.LimitReader(io.NewSectionReader(f, 0, maxLockFileBytes), maxLockFileBytes))
	if err != nil {
		return LockHolder{}
	}
	var h LockHolder
	if json.Unmarshal(data, &h) != nil || h.PID <= 0 {
		return LockHolder{}
	}
	return h
}

// Path returns the lock file's path.
func (l *Lock) Path() string { return l.path }

// Release gives the lock up. It is safe on a nil Lock and more than once.
func (l *Lock) Release() {
	if l == nil {
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.f == nil {
		return
	}
	// The file is removed while still locked: a process that opened it
	// before and takes the lock after sees that the path no longer names
	// it and starts again (sameFile). Closing drops the flock. The
	// directories the lock made are removed when nothing else is in them.
	os.Remove(l.path)
	l.f.Close()
	for _, d := range l.made {
		if os.Remove(d) != nil {
			break
		}
	}
	l.f = nil
}
