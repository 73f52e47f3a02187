package tune

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sync"

	"boardbench/internal/host"
	"boardbench/internal/inventory/netif"
)

// ErrRestored is returned by a Guard's changes once it has restored the
// saved state: nothing more may be changed through it.
const ErrRestored = sentinel("frequency tunables already restored")

// sentinel is an error value of this package that callers match with
// errors.Is; being a string constant, it costs nothing at start-up.
type sentinel string

func (e sentinel) Error() string { return string(e) }

// Guard owns the changes made to frequency tunables during a measurement and
// restores the state saved when it was created: when Close is called, or at
// once when its parent context is cancelled. Signals reach it that way: the
// program turns SIGINT, SIGTERM, SIGHUP and SIGQUIT into the cancellation of
// its context (internal/interrupt), which a Guard does not duplicate.
// Changes go through the Guard so that none can slip in after the restore.
// The session engine (internal/session) creates a measurement's Guard and
// closes it.
//
// Before the first change of a policy or device the Guard records its
// previous values in a state file (see StateFile), so that a crash or a
// SIGKILL leaves a record that `boardbench restore` puts back; a complete
// restore removes the file.
type Guard struct {
	h     *host.Host
	state State
	// filesOnly: the Guard changes files and coalescing only, and took no
	// snapshot of the frequency tunables (WithFilesOnly).
	filesOnly bool
	// eth sets interrupt coalescing (nil: netif.Live).
	eth netif.Ethtool

	// stateDir holds the state file; statePath is set once it is written
	// and file is what it holds.
	stateDir  string
	statePath string
	// confineTo is the fixture root stateDir must stay inside without a
	// link ("" for the live system or a directory given explicitly).
	confineTo string
	file      StateFile

	mu       sync.Mutex
	restored bool
	err      error

	cancel  context.CancelCauseFunc
	closing chan struct{}
	watched chan struct{}
	once    sync.Once

	// allowEmpty lets the Guard start without frequency tunables.
	allowEmpty bool

	// lock is the root's tuning lock, held from before the snapshot until
	// the restore; lockOpt says whether to wait for it.
	lock    *Lock
	lockOpt LockOptions
}

// Option configures a Guard.
type Option func(*Guard)

// WithStateDir keeps the Guard's state file in dir instead of
// StateDirFor(the host's root).
func WithStateDir(dir string) Option { return func(g *Guard) { g.stateDir = dir } }

// WithLock hands the Guard a tuning lock its caller already holds (see
// AcquireRootLock): the Guard does not take another one and releases this
// one when it restores.
func WithLock(l *Lock) Option { return func(g *Guard) { g.lock = l } }

// WithWait makes NewGuard wait for the root's tuning lock while another
// process holds it, saying once on notify (when not nil) whom it waits
// for, instead of refusing with a *BusyError.
func WithWait(notify io.Writer) Option {
	return func(g *Guard) { g.lockOpt.Wait, g.lockOpt.Notify = true, notify }
}

// WaitOption is WithWait(notify) when wait is set (--wait), and an option
// that does nothing otherwise.
func WaitOption(wait bool, notify io.Writer) Option {
	if !wait {
		return func(*Guard) {}
	}
	return WithWait(notify)
}

// NewGuard takes the tuning lock of h's root (in the state directory; see
// AcquireLock and WithLock), then saves the state of every cpufreq policy
// and devfreq device of h and starts watching parent. While another process
// holds the lock it returns a *BusyError (exit status 2), or waits with
// WithWait. The returned context is cancelled after the state has been
// restored because of the parent's cancellation (a signal, through
// internal/interrupt); long walks should stop when it is done. The lock is
// released when the Guard restores (Restore, Close, the parent's
// cancellation). Nothing but the lock file is written, not even the state
// file, before the first change.
func NewGuard(parent context.Context, h *host.Host, opts ...Option) (*Guard, context.Context, error) {
	var g0 Guard
	opts = slices.DeleteFunc(slices.Clone(opts), func(o Option) bool { return o == nil })
	for _, o := range opts {
		o(&g0)
	}
	stateDir, confineTo := g0.stateDir, ""
	if stateDir == "" {
		stateDir = StateDirFor(h.Root())
		if os.Getenv(StateDirEnv) == "" && !h.Live() {
			confineTo = h.Root()
		}
	}
	lock := g0.lock
	if lock == nil {
		var err error
		opt := g0.lockOpt
		opt.ConfineTo = confineTo
		if lock, err = AcquireLock(parent, stateDir, opt); err != nil {
			return nil, nil, err
		}
	}
	var st State
	if !g0.filesOnly {
		var err error
		st, err = Snapshot(h)
		if err != nil && !(g0.allowEmpty && errors.Is(err, errNothingSaved)) {
			// A lock handed over with WithLock stays its caller's: the
			// caller goes on (measuring untuned) and releases it at its
			// end; only a lock the Guard took is given up here.
			if g0.lock == nil {
				lock.Release()
			}
			return nil, nil, err
		}
	}
	// The Guard's context is cancelled only by the Guard, after restoring;
	// the parent's cancellation reaches it through watch.
	ctx, cancel := context.WithCancelCause(context.WithoutCancel(parent))
	g := &Guard{
		filesOnly: g0.filesOnly,
		h:         h,
		state:     st,
		cancel:    cancel,
		closing:   make(chan struct{}),
		watched:   make(chan struct{}),
	}
	for _, o := range opts {
		o(g)
	}
	g.stateDir, g.confineTo, g.lock = stateDir, confineTo, lock
	go g.watch(parent)
	return g, ctx, nil
}

// watch restores the state on the parent's cancellation.
func (g *Guard) watch(parent context.Context) {
	defer close(g.watched)
	select {
	case <-parent.Done():
		g.restore(context.Cause(parent))
	case <-g.closing:
	}
}

// restore writes the saved state back, then cancels the Guard's context so
// that whoever sees the context done knows the state is already restored.
func (g *Guard) restore(cause error) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.restored = true
	g.err = g.restoreAll()
	g.lock.Release()
	if cause == nil {
		cause = ErrRestored
	}
	g.cancel(cause)
	return g.err
}

// State returns the state saved when the Guard was created.
func (g *Guard) State() State { return g.state }

// Pin fixes a policy's clock (see Pin), unless the Guard has restored.
func (g *Guard) Pin(policy int, khz int64) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.restored {
		return ErrRestored
	}
	if err := g.recordPolicy(policy); err != nil {
		return err
	}
	return Pin(g.h, policy, khz)
}

// SetGovernor sets a policy's governor (see SetGovernor), unless the Guard
// has restored.
func (g *Guard) SetGovernor(policy int, governor string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.restored {
		return ErrRestored
	}
	if err := g.recordPolicy(policy); err != nil {
		return err
	}
	return SetGovernor(g.h, policy, governor)
}

// Restore writes the saved state back now; later changes through the Guard
// are refused. It may be called any number of times: each call rewrites
// whatever differs from the saved state.
func (g *Guard) Restore() error { return g.restore(nil) }

// Close restores the saved state and stops watching the parent. It is safe
// to call more than once; it returns the restore's error.
func (g *Guard) Close() error {
	g.once.Do(func() {
		close(g.closing)
		<-g.watched
	})
	return g.restore(nil)
}

// SetDevfreqGovernor sets a devfreq device's governor (see
// SetDevfreqGovernor), unless the Guard has restored.
func (g *Guard) SetDevfreqGovernor(device, governor string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.restored {
		return ErrRestored
	}
	if err := g.recordDevfreq(device); err != nil {
		return err
	}
	return SetDevfreqGovernor(g.h, device, governor)
}

// Rewind writes the saved state back now but, unlike Restore, keeps the
// Guard usable for further changes (e.g. to undo an OPP walk before the
// next step of a run). It returns ErrRestored once the Guard has restored.
func (g *Guard) Rewind() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.restored {
		return ErrRestored
	}
	return g.restoreAll()
}

// StatePath returns the path of the Guard's state file while one is on
// disk, "" before the first change and after a complete restore.
func (g *Guard) StatePath() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.statePath
}

// restoreAll writes the saved state back and, when every value went back,
// removes the state file. The caller holds g.mu.
func (g *Guard) restoreAll() error {
	st := g.state
	st.Files, st.Coalesce = g.file.Saved.Files, g.file.Saved.Coalesce
	err := restoreWith(g.h, st, g.eth)
	if err != nil || g.statePath == "" {
		return err
	}
	if err := removeStateFile(g.statePath); err != nil {
		return err
	}
	g.statePath = ""
	g.file.Saved = State{}
	return nil
}

// recordPolicy makes sure the state file holds the previous values of a
// cpufreq policy before it is changed. The caller holds g.mu.
func (g *Guard) recordPolicy(policy int) error {
	for _, p := range g.file.Saved.Policies {
		if p.Policy == policy {
			return g.ensureWritten()
		}
	}
	i := slices.IndexFunc(g.state.Policies, func(p PolicyState) bool { return p.Policy == policy })
	if i < 0 {
		return fmt.Errorf("cpufreq policy %d: not found when the Guard saved the state", policy)
	}
	return g.record(func(s *State) { s.Policies = append(s.Policies, g.state.Policies[i]) })
}

// recordDevfreq is recordPolicy for a devfreq device.
func (g *Guard) recordDevfreq(device string) error {
	for _, d := range g.file.Saved.Devfreq {
		if d.Name == device {
			return g.ensureWritten()
		}
	}
	i := slices.IndexFunc(g.state.Devfreq, func(d DevfreqState) bool { return d.Name == device })
	if i < 0 {
		return fmt.Errorf("devfreq device %q: not found when the Guard saved the state", device)
	}
	return g.record(func(s *State) { s.Devfreq = append(s.Devfreq, g.state.Devfreq[i]) })
}

// ensureWritten rewrites the state file if it is not on disk (a previous
// write failed) although it holds entries.
func (g *Guard) ensureWritten() error {
	if g.statePath != "" {
		return nil
	}
	return g.record(func(*State) {})
}

// record adds to the saved set and writes the state file; on failure the
// set is left as it was and the change must not be made.
func (g *Guard) record(add func(*State)) error {
	if g.file.PID == 0 {
		g.file = newStateFile(g.h.Root())
	}
	next := g.file
	next.Saved = State{
		Policies: slices.Clone(g.file.Saved.Policies),
		Devfreq:  slices.Clone(g.file.Saved.Devfreq),
		Files:    slices.Clone(g.file.Saved.Files),
		Coalesce: slices.Clone(g.file.Saved.Coalesce),
	}
	add(&next.Saved)
	if g.confineTo != "" {
		if err := checkInsideRoot(g.confineTo, g.stateDir); err != nil {
			return fmt.Errorf("recording the previous tunables before changing them: %w", err)
		}
	}
	path := stateFilePath(g.stateDir, next.PID)
	if err := writeStateFile(path, next); err != nil {
		return fmt.Errorf("recording the previous tunables before changing them: %w", err)
	}
	g.file, g.statePath = next, path
	return nil
}
