// Package compare implements `boardbench compare A B [C...]`: results
// (files or store ids) side by side, the conditions that differ first
// (package compare). See docs/compare.md.
package compare

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"boardbench/internal/cmdutil"
	"boardbench/internal/compare"
	"boardbench/internal/store"

	"github.com/spf13/cobra"
)

// NewCmd returns the compare command.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	var asJSON, markdown bool
	var chartsDir string
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
review. --charts DIR also writes each headline figure as bars, one per
result, into DIR/compare-KEY.svg (docs/charts.md).`,
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
			if chartsDir != "" {
				if err := chartsBuilt(); err != nil {
					return err // a board build draws no charts
				}
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
			if chartsDir != "" {
				return writeCharts(in, chartsDir, func(s string) { fmt.Fprintln(f.IO.ErrOut, "boardbench compare: "+s) })
			}
			return nil
		},
		PostRunE: func(cmd *cobra.Command, args []string) error { return f.IO.OutErr() },
	}
	cmdutil.AddJSONFlag(cmd, &asJSON)
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print markdown tables for a review")
	cmd.Flags().StringVar(&chartsDir, "charts", "", "also write the headline figures as bar charts (SVG) into `DIR` (created if missing)")
	return cmd
}

// loadInputs reads each argument as a result file when such a file exists,
// else as a store id (store.Args.LoadArg): the store is opened, read-only,
// only when an id is given, and never created.
func loadInputs(ctx context.Context, f *cmdutil.Factory, args []string) ([]compare.Input, error) {
	src := store.Args{Spec: f.Store.Spec, NoStore: f.Store.Off}
	defer src.Close()
	in := make([]compare.Input, 0, len(args))
	for _, a := range args {
		l, err := src.LoadArg(ctx, a)
		if errors.Is(err, store.ErrBadArg) {
			return nil, &cmdutil.UsageError{Err: err}
		} else if err != nil {
			return nil, err
		}
		label := filepath.Base(l.Path)
		if l.Path == "" {
			label = l.ID
			if len(label) > 12 {
				label = label[:12]
			}
		}
		in = append(in, compare.Input{Label: label, Result: l.Result, Doc: l.Doc})
	}
	return in, nil
}
