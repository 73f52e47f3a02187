// Package report implements `boardbench report FILE...`: a saved result of
// `boardbench run` or `boardbench monitor -- COMMAND` rendered as the text
// report, as rows of the community's results table (--markdown-row, one
// table for several files), or re-emitted as validated JSON (--json).
package report

import (
	"fmt"
	"strings"

	"boardbench/internal/cmdutil"
	"boardbench/internal/finding"
	"boardbench/internal/report/mdrow"
	"boardbench/internal/report/runtext"
	"boardbench/internal/result"

	"github.com/spf13/cobra"
)

// NewCmd returns the report command.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	var asJSON, markdownRow, header bool
	var asHTML bool
	var htmlOut string
	var chartsDir string
	cmd := &cobra.Command{
		Use:   "report FILE|ID...",
		Short: "Show a saved run result as a text report or a results-table row",
		Long: `Render a result file written by 'boardbench run' or 'boardbench monitor --
COMMAND': a summary (status, verdict, measured clock per cluster, kernel,
distribution, 7-Zip, AES-256 and memcpy/memset per core type, tools and
tuning), the validation findings, then every phase with its figures,
evidence and monitor lines.

--markdown-row prints the result as one row of the results table the
single-board computer community publishes (Device / details, Clockspeed,
Kernel, Distro, 7-zip multi, 7-zip single, AES, memcpy, memset, kH/s), with
--header adding the table's two header lines. Given several FILEs, it prints
one table with a row per FILE, in order. Unknown cells are "-"; kH/s is
filled only from a cpuminer scrypt run wrapped by 'boardbench monitor --'.
A row of an unfinished run or of figures a finding invalidates is still
printed, with a warning on standard error.

--html writes the result page of 'boardbench serve' as one self-contained
HTML file (styles, charts and the raw JSON inline, no external request),
to standard output or -o FILE: it opens offline, from a mail attachment
or an issue.

--json checks that FILE is a result this boardbench reads and prints it
again as indented JSON.

Instead of a FILE, an argument may be the id of a result in the results
store (--store, see 'boardbench results'), or the start of one that names a
single result; a file of that name wins when it exists.

A FILE that does not exist, cannot be read or is not a boardbench result,
and an id the store does not hold (or that starts several ids), are bad
input: one line on standard error and exit status 2.`,
		Example: `  boardbench report boardbench-rk3588-20250301-1000.json
  boardbench report --markdown-row result.json
  boardbench report --markdown-row --header 42d29a42 9c1e07b3
  boardbench report --markdown-row --header a.json
  boardbench report --json result.json | jq .summary
  boardbench report --html result.json -o result.html`,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case len(args) == 0:
				return cmdutil.Usagef("report takes one result FILE or store ID (several with --markdown-row)")
			case len(args) > 1 && !markdownRow:
				return cmdutil.Usagef("report takes one result FILE or store ID (got %d arguments); several only with --markdown-row", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			src := newSources(cmd.Context(), f)
			defer src.close()
			if asJSON && markdownRow {
				return cmdutil.Usagef("--json and --markdown-row cannot be combined")
			}
			if header && !markdownRow {
				return cmdutil.Usagef("--header only applies to --markdown-row")
			}
			if asHTML || htmlOut != "" {
				if !asHTML || asJSON || markdownRow {
					return cmdutil.Usagef("-o applies to --html, which cannot be combined with --json or --markdown-row")
				}
				return writeHTML(f, src, args[0], htmlOut)
			}
			if markdownRow {
				return markdownTable(f, src, args, header)
			}
			if chartsDir != "" {
				if err := chartsBuilt(); err != nil {
					return err // a board build draws no charts
				}
			}
			r, err := src.load(args[0])
			if err != nil {
				return err
			}
			if chartsDir != "" {
				if err := writeCharts(cmd.Context(), r, chartsDir, func(s string) { fmt.Fprintln(f.IO.ErrOut, "boardbench report: "+s) }); err != nil {
					return err
				}
			}
			if asJSON {
				return f.WriteJSON(r)
			}
			runtext.Render(f.IO.Out, r, f.IO.ColorEnabled())
			return nil
		},
		// Output that did not arrive (a full disk, a closed pipe) is a
		// failure, even where a renderer ignored the write error.
		PostRunE: func(cmd *cobra.Command, args []string) error { return f.IO.OutErr() },
	}
	cmdutil.AddJSONFlag(cmd, &asJSON)
	cmd.Flags().BoolVar(&markdownRow, "markdown-row", false, "print one row of the community's results table instead of the report")
	cmd.Flags().BoolVar(&asHTML, "html", false, "write the result as one self-contained HTML file (see -o)")
	cmd.Flags().StringVarP(&htmlOut, "output", "o", "", "with --html: write to `FILE` instead of standard output")
	cmd.Flags().StringVar(&chartsDir, "charts", "", "also write the result's charts as SVG files into `DIR` (created if missing)")
	cmd.Flags().BoolVar(&header, "header", false, "with --markdown-row: print the table's header lines first")
	return cmd
}

// markdownTable prints one table of the results in paths, in order, with
// the header lines first when header is set. Every file is read before
// anything is printed, so a bad one gives its error line and no partial
// table. Warnings name the file when there are several.
func markdownTable(f *cmdutil.Factory, src *sources, paths []string, header bool) error {
	results := make([]*result.Result, 0, len(paths))
	for _, p := range paths {
		r, err := src.load(p)
		if err != nil {
			return err
		}
		results = append(results, r)
	}
	for i, r := range results {
		if w := rowWarning(r); w != "" {
			prefix := "boardbench: warning: "
			if len(paths) > 1 {
				prefix += paths[i] + ": "
			}
			fmt.Fprintln(f.IO.ErrOut, prefix+w)
		}
	}
	return mdrow.Table(f.IO.Out, results, header)
}

// rowWarning says, for standard error, why a table row of r must not be
// published as it is: an unfinished run or figures that are not valid.
func rowWarning(r *result.Result) string {
	var why []string
	if r.Status != result.StatusComplete {
		why = append(why, "the run is "+r.Status)
	}
	seen := map[string]bool{}
	var ids []string
	for _, fd := range r.Findings {
		if fd.Severity == finding.Invalidates && !seen[fd.ID] {
			seen[fd.ID] = true
			ids = append(ids, fd.ID)
		}
	}
	if len(ids) > 0 {
		why = append(why, "findings invalidate the figures ("+strings.Join(ids, ", ")+")")
	}
	if len(why) == 0 {
		return ""
	}
	return strings.Join(why, "; ") + ": do not publish this row as a comparable result"
}
