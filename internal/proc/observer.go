package proc

import (
	"context"
	"time"
)

// Observer is told about the programs Start starts under a context that
// carries it (see WithObserver). The monitor is one: it counts the CPU time
// of the programs a step started as the step's work, so that what the rest
// of the machine used can be told apart.
type Observer interface {
	// Started is called once the program runs, with its pid, which is also
	// its process group id.
	Started(pid int)
	// Exited is called once the program has been reaped, with the CPU time
	// (user and system) it used, the descendants it waited for included;
	// 0 when unknown.
	Exited(pid int, cpu time.Duration)
}

type observerKey struct{}

// WithObserver returns a context under which every program started by
// Start (and so by Live.Exec) is reported to o.
func WithObserver(ctx context.Context, o Observer) context.Context {
	return context.WithValue(ctx, observerKey{}, o)
}

// observerOf returns the Observer ctx carries, nil when none.
func observerOf(ctx context.Context) Observer {
	o, _ := ctx.Value(observerKey{}).(Observer)
	return o
}
