// Package compare implements `boardbench compare A B [C...]`: results
// (files or store ids) side by side, the conditions that differ first
// (package compare). See docs/compare.md.
package compare

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"boardbench/internal/cmdutil"
	"boardbench/internal/compare"
	"boardbench/internal/regfile"
	"boardbench/internal/result"
	"boardbench/internal/store"

	"github.com/spf13/cobra"
)

// NewCmd returns the compare command.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	var asJSON, markdown bool
	cmd := &cobra.Command{
		Use:   "compare A B [C...]",
		Short: "Compare results side by side: the conditions that differ, then the figures",
		Long: `Compare two or more results, each a result file or the id (or the start
of the id) of a result in the results store. The first is the base.

First come the conditions that differ between the results, because they
explain the differences: kernel, distribution, userland architecture and
bitness, 7-Zip and openssl versions, governor, the clocks measured,
throttling and findings. Then every headline figure and every per-core-type
figure, with its change in percent against the first result; a change
larger than the run-to-run spread the results record (the 7-Zip
multi-threaded runs) is marked with *.

--json prints the comparison as JSON, --markdown as tables to paste into a
review.`,
		Example: `  boardbench compare before.json after.json
  boardbench compare 3f2a9c1e 77b01d42 --markdown`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) < 2 {
				return cmdutil.Usagef("compare takes two or more results (files or store ids)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON && markdown {
				return cmdutil.Usagef("--json and --markdown cannot be combined")
			}
			ctx := cmd.Context()
			in, err := loadInputs(ctx, f, args)
			if err != nil {
				return err
			}
			c, err := compare.Compare(in)
			if err != nil {
				return err
			}
			switch {
			case asJSON:
				return f.WriteJSON(c)
			case markdown:
				c.WriteMarkdown(f.IO.Out)
			default:
				c.WriteText(f.IO.Out)
			}
			return nil
		},
		PostRunE: func(cmd *cobra.Command, args []string) error { return f.IO.OutErr() },
	}
	cmdutil.AddJSONFlag(cmd, &asJSON)
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print markdown tables for a review")
	return cmd
}

// loadInputs reads each argument as a result file when such a file exists,
// else as a store id; the store is opened only when an id is given.
func loadInputs(ctx context.Context, f *cmdutil.Factory, args []string) ([]compare.Input, error) {
	var st store.Store
	defer func() {
		if st != nil {
			st.Close()
		}
	}()
	in := make([]compare.Input, 0, len(args))
	for _, a := range args {
		if _, err := os.Stat(a); err == nil {
			data, err := regfile.Read(a, result.MaxFileBytes, regfile.Follow)
			if err != nil {
				return nil, &cmdutil.UsageError{Err: err}
			}
			r, err := result.Parse(data)
			if err != nil {
				return nil, cmdutil.Usagef("%s: %v", a, err)
			}
			in = append(in, compare.Input{Label: filepath.Base(a), Result: r, Doc: data})
			continue
		} else if !errors.Is(err, fs.ErrNotExist) {
			return nil, cmdutil.Usagef("%s: %v", a, err)
		}
		if st == nil {
			var err error
			if st, err = f.Store.ReadStore(ctx); err != nil {
				return nil, fmt.Errorf("%s is not a file, and the results store cannot be opened: %w", a, err)
			}
		}
		id, err := store.Lookup(ctx, st, a)
		switch {
		case errors.Is(err, store.ErrNotFound):
			return nil, cmdutil.Usagef("%s: no such file, nor a result id in the store %s", a, store.Where(st))
		case errors.Is(err, store.ErrAmbiguous):
			return nil, cmdutil.Usagef("%s: no such file, and %v (in the store %s)", a, err, store.Where(st))
		case err != nil:
			return nil, err
		}
		r, doc, err := store.LoadResult(ctx, st, id)
		if err != nil {
			return nil, err
		}
		label := id
		if len(label) > 12 {
			label = label[:12]
		}
		in = append(in, compare.Input{Label: label, Result: r, Doc: doc})
	}
	return in, nil
}
