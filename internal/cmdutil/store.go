package cmdutil

import (
	"context"
	"errors"
	"os"
	"testing"

	"boardbench/internal/session"
	"boardbench/internal/store"

	"github.com/spf13/cobra"
)

// StoreOptions choose the results store: the persistent --store and
// --no-store flags of the root command.
type StoreOptions struct {
	// Spec is --store: a SQLite file or a postgres:// URL; "" means
	// $BOARDBENCH_STORE, else the default file (store.Resolve).
	Spec string
	// Off is --no-store: results are not saved to a store.
	Off bool
}

// AddStoreFlags adds --store and --no-store to cmd and its subcommands.
func AddStoreFlags(cmd *cobra.Command, o *StoreOptions) {
	cmd.PersistentFlags().StringVar(&o.Spec, "store", "", "results store: a SQLite `PATH` or a postgres:// URL (default $"+store.EnvVar+", else ~/.local/share/boardbench/results.db)")
	cmd.PersistentFlags().BoolVar(&o.Off, "no-store", false, "do not save results to the results store (the result file is still written)")
}

// ErrNoStore is returned by OpenStore under --no-store.
var ErrNoStore = errors.New("--no-store: no results store to use")

// saving reports whether finished results go to a store. A test binary
// without --store or $BOARDBENCH_STORE saves none, so that tests never
// write to the developer's own store.
func (o StoreOptions) saving() bool {
	if o.Off {
		return false
	}
	return o.Spec != "" || os.Getenv(store.EnvVar) != "" || !testing.Testing()
}

// Keeper returns the session.Keeper that saves finished results to the
// chosen store (opened for each result, so that commands that measure
// nothing never touch it); nil under --no-store.
func (o StoreOptions) Keeper() session.Keeper {
	if !o.saving() {
		return nil
	}
	spec := o.Spec
	return func(ctx context.Context, doc []byte) (string, error) {
		st, err := store.Open(ctx, spec)
		if err != nil {
			return "", err
		}
		id, _, err := st.Put(ctx, doc)
		if cerr := st.Close(); err == nil {
			err = cerr
		}
		return id, err
	}
}

// OpenStore opens the chosen store for the commands that read or change
// stored results (results, compare), which never create one: a missing
// store is one line and exit status 2, as is --no-store (ErrNoStore).
func (o StoreOptions) OpenStore(ctx context.Context) (store.Store, error) {
	if o.Off {
		return nil, &UsageError{Err: ErrNoStore}
	}
	st, err := store.OpenExisting(ctx, o.Spec)
	if errors.Is(err, store.ErrNoSuchStore) {
		return nil, Usagef("%v (nothing has been saved to it yet: the measuring commands and 'boardbench import' save results there)", err)
	}
	return st, err
}

// ReadStore opens the chosen store as OpenStore does, for the commands
// that only read stored results (results list, show, export, push's
// source, compare): read-only (store.OpenReadOnly), so a store on a
// read-only mount or owned by another user can be read, and nothing is
// written next to it (no -wal or -shm).
func (o StoreOptions) ReadStore(ctx context.Context) (store.Store, error) {
	if o.Off {
		return nil, &UsageError{Err: ErrNoStore}
	}
	st, err := store.OpenReadOnly(ctx, o.Spec)
	if errors.Is(err, store.ErrNoSuchStore) {
		return nil, Usagef("%v (nothing has been saved to it yet: the measuring commands and 'boardbench import' save results there)", err)
	}
	return st, err
}

// CreateStore opens the chosen store for saving results (import),
// creating it when missing; under --no-store it returns ErrNoStore as a
// usage error.
func (o StoreOptions) CreateStore(ctx context.Context) (store.Store, error) {
	if o.Off {
		return nil, &UsageError{Err: ErrNoStore}
	}
	return store.Open(ctx, o.Spec)
}
