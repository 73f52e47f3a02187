// Package interrupt turns the signals that ask boardbench to stop (SIGINT
// from Ctrl-C, SIGTERM, SIGHUP from a closed terminal or SSH session, SIGQUIT)
// into the cancellation of a context whose cause names the signal, so that
// every command stops its children, restores what it tuned and saves what it
// measured the same way, whichever signal arrived.
package interrupt

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"
)

// Signals are the signals that interrupt a command.
var Signals = []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT}

// Signal is the cause of a context cancelled by a signal.
type Signal struct {
	// Name is the signal's conventional name, e.g. "SIGHUP".
	Name string
}

// Error says which signal interrupted the command.
func (s *Signal) Error() string { return "interrupted by " + s.Name }

// NameOf returns the conventional name of an interrupting signal
// ("SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"), "a signal" for another.
func NameOf(sig os.Signal) string {
	switch sig {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	case syscall.SIGQUIT:
		return "SIGQUIT"
	}
	return "a signal"
}

// NotifyContext returns a context that is cancelled with a *Signal cause when
// one of Signals arrives; later signals are absorbed, so that restoring and
// saving can finish. SIGPIPE is ignored, so that a closed terminal turns
// writes into errors instead of killing the process before it saves. stop
// releases the signals.
func NotifyContext(parent context.Context) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	ch := make(chan os.Signal, 4)
	signal.Notify(ch, Signals...)
	signal.Ignore(syscall.SIGPIPE)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-ch:
				cancel(&Signal{Name: NameOf(s)})
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(context.Canceled)
	}
}

// Name names what cancelled ctx: the signal's name when a signal did, "" when
// ctx is not cancelled, and "a signal" when it was cancelled otherwise (a
// caller's cancellation stands for an interruption too).
func Name(ctx context.Context) string {
	if ctx.Err() == nil {
		return ""
	}
	var s *Signal
	if errors.As(context.Cause(ctx), &s) {
		return s.Name
	}
	return "a signal"
}

// Error is the one error of a command stopped by a signal, whatever
// command and whatever stage: its exit status is 130.
type Error struct {
	// Signal names the signal ("SIGINT", "SIGHUP"...), "a signal" when it
	// is not known.
	Signal string
}

// Error names the signal.
func (e *Error) Error() string { return "interrupted by " + e.Signal }

// ExitCode is 130, the status of an interrupted command.
func (e *Error) ExitCode() int { return 130 }

// Err returns the *Error of a cancelled ctx (naming its signal, see
// Name), nil while ctx is not done.
func Err(ctx context.Context) error {
	name := Name(ctx)
	if name == "" {
		return nil
	}
	return &Error{Signal: name}
}
