package report

import (
	"context"
	"errors"

	"boardbench/internal/cmdutil"
	"boardbench/internal/result"
	"boardbench/internal/store"
)

// sources loads the results the command line names through
// store.Args.LoadArg: each a result file or, when no such file exists, a
// result id (or the start of one) in the results store, opened read-only,
// only when an id is given, and once.
type sources struct {
	ctx  context.Context
	args store.Args
}

func newSources(ctx context.Context, f *cmdutil.Factory) *sources {
	return &sources{ctx: ctx, args: store.Args{Spec: f.Store.Spec, NoStore: f.Store.Off}}
}

// load returns the result arg names; every failure that comes from the
// argument (missing, unreadable, not a result, unknown or ambiguous id)
// is a usage error (exit 2).
func (s *sources) load(arg string) (*result.Result, error) {
	l, err := s.loaded(arg)
	if err != nil {
		return nil, err
	}
	return l.Result, nil
}

// loaded is load with what the store adds (the result's tags).
func (s *sources) loaded(arg string) (*store.Loaded, error) {
	l, err := s.args.LoadArg(s.ctx, arg)
	if errors.Is(err, store.ErrBadArg) {
		return nil, &cmdutil.UsageError{Err: err}
	} else if err != nil {
		return nil, err
	}
	return l, nil
}

// close releases the store if one was opened.
func (s *sources) close() { s.args.Close() }
