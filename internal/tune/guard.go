package tune

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"boardbench/internal/host"
)

// ErrRestored is returned by a Guard's changes once it has restored the
// saved state: nothing more may be changed through it.
var ErrRestored = errors.New("frequency tunables already restored")

// Guard owns the changes made to frequency tunables during a measurement and
// restores the state saved when it was created: when Close is called, when
// its parent context is cancelled, or at once when SIGINT or SIGTERM
// arrives. Changes go through the Guard so that none can slip in after the
// restore. The caller creates one Guard per run and defers Close.
type Guard struct {
	h     *host.Host
	state State

	mu       sync.Mutex
	restored bool
	sig      os.Signal
	err      error

	cancel  context.CancelCauseFunc
	sigCh   chan os.Signal
	closing chan struct{}
	watched chan struct{}
	once    sync.Once
}

// NewGuard saves the state of every cpufreq policy and devfreq device of h
// and starts watching for SIGINT and SIGTERM. The returned context is
// cancelled after the state has been restored because of a signal or of the
// parent's cancellation; long walks should stop when it is done.
func NewGuard(parent context.Context, h *host.Host) (*Guard, context.Context, error) {
	st, err := Snapshot(h)
	if err != nil {
		return nil, nil, err
	}
	// The Guard's context is cancelled only by the Guard, after restoring;
	// the parent's cancellation reaches it through watch.
	ctx, cancel := context.WithCancelCause(context.WithoutCancel(parent))
	g := &Guard{
		h:       h,
		state:   st,
		cancel:  cancel,
		sigCh:   make(chan os.Signal, 1),
		closing: make(chan struct{}),
		watched: make(chan struct{}),
	}
	signal.Notify(g.sigCh, os.Interrupt, syscall.SIGTERM)
	go g.watch(parent)
	return g, ctx, nil
}

// watch restores the state on a signal or on the parent's cancellation.
func (g *Guard) watch(parent context.Context) {
	defer close(g.watched)
	select {
	case s := <-g.sigCh:
		g.restore(s, fmt.Errorf("%v received", s))
	case <-parent.Done():
		// The parent is often cancelled by the same signal (the main
		// program watches for it too): record it when it is there.
		var sig os.Signal
		select {
		case sig = <-g.sigCh:
		default:
		}
		g.restore(sig, context.Cause(parent))
	case <-g.closing:
	}
}

// restore writes the saved state back, then cancels the Guard's context so
// that whoever sees the context done knows the state is already restored.
func (g *Guard) restore(sig os.Signal, cause error) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if sig != nil && g.sig == nil {
		g.sig = sig
	}
	g.restored = true
	g.err = Restore(g.h, g.state)
	if cause == nil {
		cause = ErrRestored
	}
	g.cancel(cause)
	return g.err
}

// State returns the state saved when the Guard was created.
func (g *Guard) State() State { return g.state }

// Signal returns the signal that made the Guard restore, nil when none did.
func (g *Guard) Signal() os.Signal {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.sig
}

// Pin fixes a policy's clock (see Pin), unless the Guard has restored.
func (g *Guard) Pin(policy int, khz int64) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.restored {
		return ErrRestored
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
	return SetGovernor(g.h, policy, governor)
}

// Restore writes the saved state back now; later changes through the Guard
// are refused. It may be called any number of times: each call rewrites
// whatever differs from the saved state.
func (g *Guard) Restore() error { return g.restore(nil, nil) }

// Close restores the saved state and stops watching for signals. It is safe
// to call more than once; it returns the restore's error.
func (g *Guard) Close() error {
	g.once.Do(func() {
		close(g.closing)
		<-g.watched
		signal.Stop(g.sigCh)
	})
	return g.restore(nil, nil)
}

// SetDevfreqGovernor sets a devfreq device's governor (see
// SetDevfreqGovernor), unless the Guard has restored.
func (g *Guard) SetDevfreqGovernor(device, governor string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.restored {
		return ErrRestored
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
	return Restore(g.h, g.state)
}
