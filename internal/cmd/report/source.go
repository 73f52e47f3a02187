package report

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"

	"boardbench/internal/cmdutil"
	"boardbench/internal/result"
	"boardbench/internal/store"
)

// sources loads the results the command line names: each a result file
// or, when no such file exists, a result id (or the start of one) in the
// results store. The store is opened, read-only, only when an id is
// given, and once.
type sources struct {
	ctx   context.Context
	spec  cmdutil.StoreOptions
	store store.Store
}

func newSources(ctx context.Context, f *cmdutil.Factory) *sources {
	return &sources{ctx: ctx, spec: f.Store}
}

// load returns the result arg names; every failure that comes from the
// argument (missing, unreadable, not a result, unknown or ambiguous id)
// is a usage error (exit 2).
func (s *sources) load(arg string) (*result.Result, error) {
	if _, err := os.Lstat(arg); err == nil || !errors.Is(err, fs.ErrNotExist) || !looksLikeID(arg) {
		return load(arg)
	}
	if s.store == nil {
		if s.spec.Off {
			return nil, cmdutil.Usagef("%s: no such file (and --no-store: no results store to look the id up in)", arg)
		}
		st, err := store.OpenReadOnly(s.ctx, s.spec.Spec)
		if errors.Is(err, store.ErrNoSuchStore) {
			return nil, cmdutil.Usagef("%s: no such file, nor a results store to look the id up in (%v)", arg, err)
		} else if err != nil {
			return nil, fmt.Errorf("%s is not a file, and the results store cannot be opened: %w", arg, err)
		}
		s.store = st
	}
	id, err := store.Lookup(s.ctx, s.store, strings.ToLower(arg))
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, cmdutil.Usagef("%s: no such file, nor a result id in the store %s", arg, store.Where(s.store))
	case errors.Is(err, store.ErrAmbiguous):
		return nil, cmdutil.Usagef("%s: no such file, and %v (in the store %s)", arg, err, store.Where(s.store))
	case err != nil:
		return nil, err
	}
	r, _, err := store.LoadResult(s.ctx, s.store, id)
	return r, err
}

// close releases the store if one was opened.
func (s *sources) close() {
	if s.store != nil {
		s.store.Close()
	}
}

// looksLikeID reports whether arg can be a result id or the start of one
// (1 to 64 hexadecimal digits); anything else is only ever a file name.
func looksLikeID(arg string) bool {
	if arg == "" || len(arg) > 64 {
		return false
	}
	for _, c := range arg {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
