package results

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"boardbench/internal/cmdutil"
	"boardbench/internal/report/mdrow"
	"boardbench/internal/report/runtext"
	"boardbench/internal/result"
	"boardbench/internal/store"
	"boardbench/internal/textfmt"

	"github.com/spf13/cobra"
)

func newShowCmd(f *cmdutil.Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Show a stored result as the text report",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return cmdutil.Usagef("results show takes one result ID")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			return withStored(ctx, f, openRead, args[0], func(st store.Store, id string) error {
				r, doc, err := store.LoadResult(ctx, st, id)
				if err != nil {
					return err
				}
				if asJSON {
					_, err := f.IO.Out.Write(doc)
					return err
				}
				runtext.Render(f.IO.Out, r, f.IO.ColorEnabled())
				return nil
			})
		},
		PostRunE: func(cmd *cobra.Command, args []string) error { return f.IO.OutErr() },
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the stored result document as it was saved")
	return cmd
}

// Export formats.
const (
	FormatJSON     = "json"
	FormatCSV      = "csv"
	FormatMarkdown = "markdown"
)

func newExportCmd(f *cmdutil.Factory) *cobra.Command {
	var all, header bool
	var format string
	cmd := &cobra.Command{
		Use:   "export ID...|--all --format json|csv|markdown",
		Short: "Export stored results as JSON, CSV or rows of the published results table",
		Long: `Export stored results.

  json      the result documents as they were saved (one ID: the document;
            several or --all: a JSON array of them)
  csv       one line per result: its indexed columns and every headline
            figure (a column per figure name)
  markdown  one row per result in the current format of the results
            table the single-board computer community publishes (an
            imported log's row of an older format is derived anew; report
            --markdown-row prints it as the log did); --header adds the
            table's header lines`,
		Example: `  boardbench results export 3f2a9c1e --format markdown
  boardbench results export --all --format csv > results.csv`,
		Args: func(cmd *cobra.Command, args []string) error {
			switch {
			case all && len(args) > 0:
				return cmdutil.Usagef("give result IDs or --all, not both")
			case !all && len(args) == 0:
				return cmdutil.Usagef("results export takes result IDs or --all")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains([]string{FormatJSON, FormatCSV, FormatMarkdown}, format) {
				return cmdutil.Usagef("--format %q: want json, csv or markdown", format)
			}
			if header && format != FormatMarkdown {
				return cmdutil.Usagef("--header only applies to --format markdown")
			}
			ctx := cmd.Context()
			st, err := openRead(ctx, f)
			if err != nil {
				return err
			}
			defer st.Close()
			ids, err := exportIDs(ctx, st, args, all)
			if err != nil {
				return err
			}
			w := bufio.NewWriter(f.IO.Out)
			defer w.Flush()
			switch format {
			case FormatJSON:
				return exportJSON(ctx, w, st, ids, len(args) == 1)
			case FormatCSV:
				return exportCSV(ctx, w, st, ids)
			default:
				return exportMarkdown(ctx, w, st, ids, header)
			}
		},
		PostRunE: func(cmd *cobra.Command, args []string) error { return f.IO.OutErr() },
	}
	cmd.Flags().BoolVar(&all, "all", false, "export every stored result (oldest first)")
	cmd.Flags().StringVar(&format, "format", FormatJSON, "`FORMAT`: json, csv or markdown")
	cmd.Flags().BoolVar(&header, "header", false, "with --format markdown: print the table's header lines first")
	return cmd
}

// exportIDs resolves the ids given, or lists every stored one, oldest first.
func exportIDs(ctx context.Context, st store.Store, args []string, all bool) ([]string, error) {
	if !all {
		ids := make([]string, 0, len(args))
		for _, a := range args {
			id, err := lookup(ctx, st, a)
			if err != nil {
				return nil, err
			}
			ids = append(ids, id)
		}
		return ids, nil
	}
	recs, _, err := st.List(ctx, store.Query{Sort: "created_at"})
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(recs))
	for _, r := range recs {
		ids = append(ids, r.ID)
	}
	return ids, nil
}

func exportJSON(ctx context.Context, w io.Writer, st store.Store, ids []string, single bool) error {
	if single {
		doc, err := st.Get(ctx, ids[0])
		if err != nil {
			return err
		}
		_, err = w.Write(withNewline(doc))
		return err
	}
	io.WriteString(w, "[\n")
	for i, id := range ids {
		doc, err := st.Get(ctx, id)
		if err != nil {
			return err
		}
		if i > 0 {
			io.WriteString(w, ",\n")
		}
		w.Write([]byte(strings.TrimRight(string(doc), "\n")))
	}
	_, err := io.WriteString(w, "\n]\n")
	return err
}

func withNewline(b []byte) []byte {
	if len(b) > 0 && b[len(b)-1] != '\n' {
		return append(b, '\n')
	}
	return b
}

// csvColumns are the fixed columns of the CSV export.
var csvColumns = []string{"id", "kind", "board", "soc", "core_types", "kernel", "distro", "arch", "host", "created_at",
	"status", "valid", "tags", "finding_ids", "tools"}

func exportCSV(ctx context.Context, w io.Writer, st store.Store, ids []string) error {
	recs := make([]store.Record, 0, len(ids))
	names := map[string]bool{}
	for _, id := range ids {
		r, err := st.Record(ctx, id)
		if err != nil {
			return err
		}
		recs = append(recs, r)
		for n := range r.Figures {
			names[n] = true
		}
	}
	figs := slices.Sorted(maps.Keys(names))
	cw := csv.NewWriter(w)
	head := append(slices.Clone(csvColumns), figs...)
	for i := range head {
		head[i] = textfmt.CSVText(head[i])
	}
	cw.Write(head)
	for _, r := range recs {
		tools := make([]string, 0, len(r.Tools))
		for _, n := range slices.Sorted(maps.Keys(r.Tools)) {
			tools = append(tools, n+" "+r.Tools[n])
		}
		row := []string{r.ID, r.Kind, r.Board, r.SoC, r.CoreTypes, r.Kernel, r.Distro, r.Arch, r.Host,
			r.CreatedAt.UTC().Format("2006-01-02T15:04:05Z"), r.Status, strconv.FormatBool(r.Valid),
			strings.Join(r.Tags, ";"), strings.Join(r.FindingIDs, ";"), strings.Join(tools, ";")}
		// Text cells came from results (a stranger's board name): no
		// spreadsheet formulas. Figure cells are numbers, written as such.
		for i := range row {
			row[i] = textfmt.CSVText(row[i])
		}
		for _, n := range figs {
			cell := ""
			if v, ok := r.Figures[n]; ok {
				cell = strconv.FormatFloat(v, 'f', -1, 64)
			}
			row = append(row, cell)
		}
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

func exportMarkdown(ctx context.Context, w io.Writer, st store.Store, ids []string, header bool) error {
	rs := make([]*result.Result, 0, len(ids))
	for _, id := range ids {
		r, _, err := store.LoadResult(ctx, st, id)
		if err != nil {
			return err
		}
		rs = append(rs, r)
	}
	return mdrow.CurrentTable(w, rs, header)
}

func newTagCmd(f *cmdutil.Factory) *cobra.Command {
	return &cobra.Command{
		Use:   "tag ID TAG",
		Short: "Tag a stored result",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return cmdutil.Usagef("results tag takes a result ID and a TAG")
			}
			if strings.TrimSpace(args[1]) == "" {
				return cmdutil.Usagef("a tag must not be empty")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			return withStored(ctx, f, open, args[0], func(st store.Store, id string) error {
				return st.Tag(ctx, id, args[1])
			})
		},
	}
}

func newRmCmd(f *cmdutil.Factory, isTTY func(*cmdutil.Factory) bool) *cobra.Command {
	var yes bool
	cmd := &cobra.Command{
		Use:   "rm ID...",
		Short: "Remove stored results (asks first unless --yes)",
		Long: `Remove results from the store. On a terminal, rm shows what it will remove
and asks; without a terminal it needs --yes. Result files are not touched.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmdutil.Usagef("results rm takes result IDs")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			ctx := cmd.Context()
			if !yes && !isTTY(f) {
				return cmdutil.Usagef("results rm asks before removing, and standard input is not a terminal: add --yes")
			}
			st, err := open(ctx, f)
			if err != nil {
				return err
			}
			defer st.Close()
			var recs []store.Record
			for _, a := range args {
				id, err := lookup(ctx, st, a)
				if err != nil {
					return err
				}
				r, err := st.Record(ctx, id)
				if err != nil {
					return err
				}
				recs = append(recs, r)
			}
			if !yes {
				for _, r := range recs {
					fmt.Fprintf(f.IO.ErrOut, "  %s  %s  %s  %s\n", r.ID, r.CreatedAt.Local().Format("2006-01-02 15:04"), r.Kind, r.Board)
				}
				fmt.Fprintf(f.IO.ErrOut, "Remove %d result(s) from %s? [y/N] ", len(recs), whereOf(st))
				line, _ := bufio.NewReader(f.IO.In).ReadString('\n')
				if a := strings.ToLower(strings.TrimSpace(line)); a != "y" && a != "yes" {
					fmt.Fprintln(f.IO.ErrOut, "Nothing removed.")
					return nil
				}
			}
			for _, r := range recs {
				if err := st.Remove(ctx, r.ID); err != nil {
					return err
				}
			}
			fmt.Fprintf(f.IO.ErrOut, "boardbench: removed %d result(s) from %s\n", len(recs), whereOf(st))
			return nil
		},
	}
	cmd.Flags().BoolVarP(&yes, "yes", "y", false, "remove without asking")
	return cmd
}

// PushSummary counts what Push did.
type PushSummary struct {
	Pushed  int `json:"pushed"`
	Present int `json:"present"`
}

// Push copies the results q selects from src to dst by id (documents
// verbatim, tags too): a result dst holds already is left as it is.
func Push(ctx context.Context, src, dst store.Store, q store.Query) (PushSummary, error) {
	q.Sort, q.Desc = "created_at", false
	recs, _, err := src.List(ctx, q)
	if err != nil {
		return PushSummary{}, err
	}
	return pushRecords(ctx, src, dst, recs)
}

// pushRecords copies the results recs name from src to dst as Push does.
func pushRecords(ctx context.Context, src, dst store.Store, recs []store.Record) (PushSummary, error) {
	var sum PushSummary
	for _, r := range recs {
		doc, err := src.Get(ctx, r.ID)
		if err != nil {
			return sum, err
		}
		id, created, err := dst.Put(ctx, doc)
		if err != nil {
			return sum, fmt.Errorf("pushing %s: %w", r.ID, err)
		}
		if created {
			sum.Pushed++
		} else {
			sum.Present++
		}
		for _, t := range r.Tags {
			if err := dst.Tag(ctx, id, t); err != nil {
				return sum, fmt.Errorf("tagging %s: %w", id, err)
			}
		}
	}
	return sum, nil
}
