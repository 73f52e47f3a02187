package cmdutil

import (
	"context"
	"errors"

	"boardbench/internal/tune"

	"github.com/spf13/cobra"
)

// AddWaitFlag adds --wait to a command that tunes the machine: wait for
// another tuning run on the same root to end instead of refusing.
func AddWaitFlag(cmd *cobra.Command, wait *bool) {
	cmd.Flags().BoolVar(wait, "wait", false, "wait for another tuning run on this machine (or --root) to end instead of refusing")
}

// TuningLock takes the tuning lock of root for a command that tunes it
// (tune.AcquireRootLock), before it measures anything. While another run
// holds it, it returns the *tune.BusyError (exit status 2) or, with wait,
// waits and says so on standard error. A process that cannot even create
// the lock file cannot write the state file either, so it can change
// nothing: then the lock is nil and the error too, and the command's guard
// reports what it cannot do. Release the lock with Release (nil-safe), or
// hand it to the guard with tune.WithLock.
func (f *Factory) TuningLock(ctx context.Context, root string, wait bool) (*tune.Lock, error) {
	l, err := tune.AcquireRootLock(ctx, root, wait, f.IO.ErrOut)
	var busy *tune.BusyError
	if err != nil && !errors.As(err, &busy) && ctx.Err() == nil {
		return nil, nil
	}
	return l, err
}

// GuardWait returns the tune.NewGuard option that makes the guard wait for
// the tuning lock when wait is set (saying so on standard error), and one
// that does nothing otherwise.
func (f *Factory) GuardWait(wait bool) tune.Option {
	if !wait {
		return func(*tune.Guard) {}
	}
	return tune.WithWait(f.IO.ErrOut)
}
