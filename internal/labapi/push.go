package labapi

import (
	"context"
	"errors"
	"fmt"
	"io"

	"boardbench/internal/store"
)

// Summary counts what a push did: results stored by the lab, results it
// held already, results kept as pending.
type Summary struct {
	Pushed  int `json:"pushed"`
	Present int `json:"present"`
	Pending int `json:"pending"`
	// Target is the lab (or store) pushed to.
	Target string `json:"target"`
}

// ErrPending is returned (wrapped) when some results were kept as pending.
const ErrPending = sentinel("kept as pending")

// sentinel is an error value of this package that callers match with
// errors.Is; being a string constant, it costs nothing at start-up.
type sentinel string

func (e sentinel) Error() string { return string(e) }

// PushStored uploads the stored results ids of st to c's lab, in order.
// Each one the lab takes (or holds already) is no longer pending; each
// one it refuses, or that cannot reach it, is kept as pending in st
// (store.AddPending) with the reason, so that nothing is lost: once the
// lab cannot be reached, the rest are kept as pending without trying.
// Progress lines go to log (nil: none). The error, when some are
// pending, wraps ErrPending and names the first reason.
func PushStored(ctx context.Context, st store.Store, c *Client, ids []string, log io.Writer) (Summary, error) {
	target := Target(c.Base)
	sum := Summary{Target: target}
	var first error
	unreachable := false
	for _, id := range ids {
		var err error
		if unreachable {
			err = first
		} else {
			var doc []byte
			doc, err = st.Get(ctx, id)
			if errors.Is(err, store.ErrNotFound) {
				// Removed since it was kept: nothing left to push.
				_ = store.RemovePending(ctx, st, id, target)
				continue
			}
			if err == nil {
				var ans UploadAnswer
				ans, err = c.Upload(ctx, doc)
				if err == nil {
					if ans.Created {
						sum.Pushed++
					} else {
						sum.Present++
					}
					if log != nil {
						what := "pushed"
						if !ans.Created {
							what = "already there"
						}
						fmt.Fprintf(log, "boardbench: %s %s: %s\n", what, id, c.Link(ans.URL))
					}
					if rerr := store.RemovePending(ctx, st, id, target); rerr != nil {
						return sum, rerr
					}
					continue
				}
			}
			var he *HTTPError
			if !errors.As(err, &he) && ctx.Err() == nil {
				unreachable = true
			}
			if first == nil {
				first = err
			}
		}
		if ctx.Err() != nil {
			// Interrupted: what was not pushed is kept, with a fresh context.
			ctx = context.WithoutCancel(ctx)
		}
		if perr := store.AddPending(ctx, st, id, target, err.Error()); perr != nil {
			return sum, fmt.Errorf("keeping %s as pending: %v (after: %v)", id, perr, err)
		}
		sum.Pending++
	}
	if sum.Pending > 0 {
		return sum, fmt.Errorf("%d result(s) not pushed to %s, %w in the store ('boardbench results push --pending' retries them): %v", sum.Pending, target, ErrPending, first)
	}
	return sum, nil
}
