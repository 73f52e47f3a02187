package store

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"time"
)

// transientStates are the SQLSTATEs of a server that refuses a connection
// for now: too many connections (53300, also per role or database),
// starting up (57P03), out of resources (53000, 53200).
var transientStates = []string{"53300", "57P03", "53000", "53200"}

// IsTransient reports whether err is a refusal that may pass: a database
// server that answers but refuses the connection for now (too many
// connections, starting up, out of resources). A server that cannot be
// reached at all (connection refused, no such host) is not: a push to it
// fails at once and keeps its results as pending. A statement's own error
// (a constraint, a syntax error) is not transient either.
func IsTransient(err error) bool {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return false
	}
	var st interface{ SQLState() string }
	if errors.As(err, &st) {
		code := st.SQLState()
		for _, c := range transientStates {
			if code == c {
				return true
			}
		}
		return false
	}
	msg := err.Error()
	return strings.Contains(msg, "too many clients") || strings.Contains(msg, "too many connections")
}

// Backoff is how a push into a store waits between attempts refused by a
// busy server: First, doubled after each attempt up to Max (each wait
// drawn between half and all of it, so that many pushers spread out),
// until Total has passed or the context ends. Sleep, when set, replaces
// the wait (tests).
type Backoff struct {
	First, Max, Total time.Duration
	Sleep             func(context.Context, time.Duration) error
}

// DefaultBackoff waits from 100 ms up to 5 s between attempts, for up to
// 10 minutes.
var DefaultBackoff = Backoff{First: 100 * time.Millisecond, Max: 5 * time.Second, Total: 10 * time.Minute}

// Do runs fn until it succeeds, fails with an error that is not
// transient (IsTransient), or the backoff's time is over (its last error
// is returned then).
func (b Backoff) Do(ctx context.Context, fn func() error) error {
	wait, start := b.First, time.Now()
	if wait <= 0 {
		wait = DefaultBackoff.First
	}
	for {
		err := fn()
		if !IsTransient(err) || (b.Total > 0 && time.Since(start) > b.Total) {
			return err
		}
		d := wait/2 + rand.N(wait/2+1)
		if err := b.sleep(ctx, d); err != nil {
			return err
		}
		if wait *= 2; b.Max > 0 && wait > b.Max {
			wait = b.Max
		}
	}
}

func (b Backoff) sleep(ctx context.Context, d time.Duration) error {
	if b.Sleep != nil {
		return b.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// OpenRetrying opens the store spec names as Open does, trying again
// with b while the server refuses connections.
func OpenRetrying(ctx context.Context, spec string, b Backoff) (Store, error) {
	var st Store
	err := b.Do(ctx, func() error {
		var err error
		st, err = Open(ctx, spec)
		return err
	})
	if err != nil {
		return nil, err
	}
	return Retrying(st, b), nil
}

// Retrying returns st with every call tried again with b while the
// server refuses connections (a pushing board among a hundred).
func Retrying(st Store, b Backoff) Store { return &retrying{Store: st, b: b} }

type retrying struct {
	Store
	b Backoff
}

func (r *retrying) Put(ctx context.Context, doc []byte) (id string, created bool, err error) {
	err = r.b.Do(ctx, func() error {
		var e error
		id, created, e = r.Store.Put(ctx, doc)
		return e
	})
	return id, created, err
}

func (r *retrying) Tag(ctx context.Context, id, tag string) error {
	return r.b.Do(ctx, func() error { return r.Store.Tag(ctx, id, tag) })
}

func (r *retrying) Get(ctx context.Context, id string) (doc []byte, err error) {
	err = r.b.Do(ctx, func() error {
		var e error
		doc, e = r.Store.Get(ctx, id)
		return e
	})
	return doc, err
}

func (r *retrying) Record(ctx context.Context, id string) (rec Record, err error) {
	err = r.b.Do(ctx, func() error {
		var e error
		rec, e = r.Store.Record(ctx, id)
		return e
	})
	return rec, err
}

func (r *retrying) List(ctx context.Context, q Query) (recs []Record, total int, err error) {
	err = r.b.Do(ctx, func() error {
		var e error
		recs, total, e = r.Store.List(ctx, q)
		return e
	})
	return recs, total, err
}

// Where names the store wrapped.
func (r *retrying) Where() string { return Where(r.Store) }
