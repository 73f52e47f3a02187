// Package cmdstore opens the results store the root command's --store and
// --no-store flags chose (cmdutil.StoreOptions): the Keeper that measuring
// commands hand to the session engine in session.Config, and the store
// that results, compare, import and serve read or write. It keeps the
// store and the engine out of package cmdutil, which every command (even
// version) links.
package cmdstore

import (
	"context"
	"errors"

	"boardbench/internal/cmdutil"
	"boardbench/internal/session"
	"boardbench/internal/store"

	"github.com/spf13/cobra"
)

// AddFlags adds --store and --no-store to cmd and its subcommands.
func AddFlags(cmd *cobra.Command, o *cmdutil.StoreOptions) {
	cmd.PersistentFlags().StringVar(&o.Spec, "store", "", "results store: a SQLite `PATH` or a postgres:// URL (default $"+store.EnvVar+", else ~/.local/share/boardbench/results.db)")
	cmd.PersistentFlags().BoolVar(&o.Off, "no-store", false, "do not save results to the results store (the result file is still written)")
}

// ErrNoStore is returned by Open, Read and Create under --no-store.
const ErrNoStore = sentinel("--no-store: no results store to use")

// sentinel is an error value of this package that callers match with
// errors.Is; being a string constant, it costs nothing at start-up.
type sentinel string

func (e sentinel) Error() string { return string(e) }

// Keeper returns the session.Keeper that saves finished results to the
// store o chose (opened for each result, so that commands that measure
// nothing never touch it); nil under --no-store. Measuring commands pass
// it to the engine in session.Config.Keep (through Factory.Keep, which
// the root command sets).
//
// A save to a SQLite store is not cut short by ctx's deadline (the
// engine's KeepTimeout) nor by its cancellation: its only waits are for
// another writer's lock, which store.BusyTimeout bounds, and the rest is
// work on a local file. Creating a store runs every migration in one
// transaction; on a slow board (or an emulated one under load) that took
// longer than the deadline, SQLite was interrupted and rolled it back,
// and every later save on that machine started again from nothing and
// was cut again ("migration to schema version 3: interrupted"). A
// PostgreSQL store keeps the deadline: its waits are for the network.
func Keeper(o cmdutil.StoreOptions) session.Keeper {
	if o.Off {
		return nil
	}
	spec := o.Spec
	return func(ctx context.Context, doc []byte) (string, error) {
		if where, err := store.Resolve(spec); err == nil && !store.IsPostgres(where) {
			ctx = context.WithoutCancel(ctx)
		}
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

// Open opens the store o chose for the commands that change stored
// results (results rm, tag...), which never create one: a missing store
// is one line and exit status 2, as is --no-store (ErrNoStore).
func Open(ctx context.Context, o cmdutil.StoreOptions) (store.Store, error) {
	if o.Off {
		return nil, &cmdutil.UsageError{Err: ErrNoStore}
	}
	st, err := store.OpenExisting(ctx, o.Spec)
	return st, noStore(err)
}

// Read opens the store o chose as Open does, for the commands that only
// read stored results (results list, show, export, push's source,
// compare, report, serve): read-only (store.OpenReadOnly), so a store on
// a read-only mount or owned by another user can be read, and nothing is
// written next to it (no -wal or -shm).
func Read(ctx context.Context, o cmdutil.StoreOptions) (store.Store, error) {
	if o.Off {
		return nil, &cmdutil.UsageError{Err: ErrNoStore}
	}
	st, err := store.OpenReadOnly(ctx, o.Spec)
	return st, noStore(err)
}

// Create opens the store o chose for saving results (import), creating
// it when missing; under --no-store it returns ErrNoStore as a usage
// error.
func Create(ctx context.Context, o cmdutil.StoreOptions) (store.Store, error) {
	if o.Off {
		return nil, &cmdutil.UsageError{Err: ErrNoStore}
	}
	return store.Open(ctx, o.Spec)
}

// noStore turns a missing store into a usage error that says how a store
// comes to be.
func noStore(err error) error {
	if errors.Is(err, store.ErrNoSuchStore) {
		return cmdutil.Usagef("%v (nothing has been saved to it yet: the measuring commands and 'boardbench import' save results there)", err)
	}
	return err
}
