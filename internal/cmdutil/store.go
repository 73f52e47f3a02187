package cmdutil

import "context"

// StoreOptions choose the results store: the persistent --store and
// --no-store flags of the root command (package cmdstore adds them and
// opens the store they name).
type StoreOptions struct {
	// Spec is --store: a SQLite file or a postgres:// URL; "" means
	// $BOARDBENCH_STORE, else the default file (store.Resolve).
	Spec string
	// Off is --no-store: results are not saved to a store.
	Off bool
}

// Keeper saves a finished result document to the results store and
// returns its id there (the shape of session.Keeper, which it converts to
// without this package importing the engine).
type Keeper = func(ctx context.Context, doc []byte) (id string, err error)
