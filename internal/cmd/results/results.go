// Package results implements `boardbench results`: the results store seen
// from the command line (list, show, export, tag, rm, push). See
// docs/store.md.
package results

import (
	"context"
	"errors"
	"os"
	"time"

	"boardbench/internal/cmdstore"
	"boardbench/internal/cmdutil"
	"boardbench/internal/store"

	"github.com/spf13/cobra"
	"golang.org/x/term"
)

// NewCmd returns the results command and its subcommands.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "results",
		Short: "List, show, export, tag, remove and push the results kept in the results store",
		Long: `Every result boardbench makes is saved to the results store besides its
file (unless --no-store): a SQLite file by default
(~/.local/share/boardbench/results.db, or under $XDG_DATA_HOME), another file
or a lab's PostgreSQL server with --store or $BOARDBENCH_STORE.

An ID may be shortened to any start of it that names one result.`,
		Example: `  boardbench results list --board "Radxa ROCK 5B" --valid
  boardbench results show 3f2a9c1e
  boardbench results export --all --format markdown
  boardbench results push --to postgres://lab@dbhost/boardbench`,
		Args: cmdutil.UnknownCommand,
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newListCmd(f), newShowCmd(f), newExportCmd(f), newTagCmd(f), newRmCmd(f, stdinIsTerminal), newPushCmd(f))
	return cmd
}

// stdinIsTerminal reports whether standard input is a terminal.
func stdinIsTerminal(f *cmdutil.Factory) bool {
	file, ok := f.IO.In.(*os.File)
	return ok && term.IsTerminal(int(file.Fd()))
}

// open opens the chosen store, to change it (tag, rm).
func open(ctx context.Context, f *cmdutil.Factory) (store.Store, error) {
	return cmdstore.Open(ctx, f.Store)
}

// openRead opens the chosen store read-only, to read it (list, show,
// export, push's source): see cmdstore.Read.
func openRead(ctx context.Context, f *cmdutil.Factory) (store.Store, error) {
	return cmdstore.Read(ctx, f.Store)
}

// lookup resolves an id or its start (store.ResolveID: the one id rule);
// an unknown id, or a start that several ids share, is bad input, and its
// message is the store's own.
func lookup(ctx context.Context, st store.Store, id string) (string, error) {
	full, err := store.ResolveID(ctx, st, id)
	if errors.Is(err, store.ErrBadArg) {
		return "", &cmdutil.UsageError{Err: err}
	}
	return full, err
}

func whereOf(st store.Store) string {
	if w := store.Where(st); w != "" {
		return w
	}
	return "(unnamed)"
}

// withStored opens the store, resolves ref (an id or its start, see
// lookup) and calls fn with the store and the full id; the store is
// closed when fn returns. openWith is open (to change the result) or
// openRead.
func withStored(ctx context.Context, f *cmdutil.Factory, openWith func(context.Context, *cmdutil.Factory) (store.Store, error), ref string, fn func(st store.Store, id string) error) error {
	st, err := openWith(ctx, f)
	if err != nil {
		return err
	}
	defer st.Close()
	id, err := lookup(ctx, st, ref)
	if err != nil {
		return err
	}
	return fn(st, id)
}

// parseDate reads --since: a date (YYYY-MM-DD, midnight UTC) or an RFC 3339 time.
func parseDate(s string) (time.Time, error) {
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	return time.Time{}, cmdutil.Usagef("--since %q: want a date YYYY-MM-DD or a time like 2025-03-01T10:00:00Z", s)
}
