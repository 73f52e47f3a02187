package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"boardbench/internal/cmdutil"
	"boardbench/internal/store"
	"boardbench/internal/textfmt"

	"github.com/spf13/cobra"
)

// ListItem is one element of `results list --json`.
type ListItem struct {
	store.Heading
	Summary map[string]float64 `json:"summary"`
}

// ShortID is how many digits of an id the table shows.
const ShortID = 12

func newListCmd(f *cmdutil.Factory) *cobra.Command {
	var q store.Query
	var since string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the stored results, newest first",
		Long: `List the stored results, newest first: id (its first 12 digits), date, kind,
board, SoC, status, validity and the 7-Zip multi-threaded figure when there
is one. One line per result: on a terminal, long board and SoC names are
shortened with an ellipsis (…) to the terminal's width (narrower than 100
columns, the date loses its time of day); on a pipe every cell is whole.
--json prints an array of {id, kind, board, soc, created_at, status,
valid, summary}, summary holding every headline figure by name, and quick:
true for a result of a quick mode (its kind reads "run (quick)" in the
table): quick figures are not comparable with standard ones.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if q.Limit < 0 {
				return cmdutil.Usagef("--limit must not be negative")
			}
			if since != "" {
				t, err := parseDate(since)
				if err != nil {
					return err
				}
				q.Since = t
			}
			ctx := cmd.Context()
			st, err := openRead(ctx, f)
			if err != nil {
				return err
			}
			defer st.Close()
			if asJSON {
				lw := newListJSON(f.IO.Out)
				if err := store.Each(ctx, st, q, lw.add); err != nil {
					return err
				}
				return lw.close()
			}
			// Streamed (store.Each) in blocks of listBlock rows, each
			// aligned on its own: a list of a million results is never
			// held in memory.
			w := bufio.NewWriterSize(f.IO.Out, 64<<10)
			n := 0
			// One line per result: on a terminal long board and SoC names
			// are shortened (…) to the terminal's width, never wrapped; on
			// a pipe every cell is whole, for grep and awk.
			width, date := -1, "2006-01-02 15:04"
			if f.IO.IsStdoutTTY() {
				width = f.IO.TerminalWidth()
				if width < textfmt.MaxWidth {
					// The time of day gives way to the names.
					date = "2006-01-02"
				}
			}
			var t *textfmt.Table
			flush := func() {
				if t != nil && t.Len() > 0 {
					t.Headless = n > t.Len()
					t.Write(w)
				}
				t = textfmt.NewTable("ID", "DATE", "KIND", "BOARD", "SOC", "STATUS", "VALID", "7-ZIP MULTI")
				t.RightAlign = map[int]bool{7: true}
				t.Wrap = map[int]bool{3: true, 4: true}
				t.OneLine = true
				t.Width = width
			}
			flush()
			err = store.Each(ctx, st, q, func(r store.Record) error {
				id := r.ID
				if len(id) > ShortID {
					id = id[:ShortID]
				}
				valid := "no"
				if r.Valid {
					valid = "yes"
				}
				multi := "-"
				if v, ok := r.Figures["sevenzip_multi_mips"]; ok {
					multi = strconv.FormatFloat(v, 'f', 0, 64)
				}
				kind := r.Kind
				if r.Quick {
					// A quick result is not set beside standard ones.
					kind += " (quick)"
				}
				t.Row(id, r.CreatedAt.Local().Format(date), kind, textfmt.OrUnknown(r.Board), textfmt.OrUnknown(r.SoC), r.Status, valid, multi)
				if n++; t.Len() == listBlock {
					flush()
				}
				return nil
			})
			if err != nil {
				return err
			}
			if n == 0 {
				fmt.Fprintf(f.IO.ErrOut, "boardbench: no results in the store %s match\n", whereOf(st))
				return nil
			}
			flush()
			return w.Flush()
		},
		PostRunE: func(cmd *cobra.Command, args []string) error { return f.IO.OutErr() },
	}
	cmd.Flags().StringVar(&q.Board, "board", "", "only results whose board name contains `TEXT` (any case)")
	cmd.Flags().StringVar(&q.SoC, "soc", "", "only results whose SoC contains `TEXT` (any case)")
	cmd.Flags().StringVar(&since, "since", "", "only results made on or after `DATE` (YYYY-MM-DD)")
	cmd.Flags().BoolVar(&q.ValidOnly, "valid", false, "only results whose figures are valid")
	cmd.Flags().StringVar(&q.Tag, "tag", "", "only results tagged `TAG`")
	cmd.Flags().StringVar(&q.Kind, "kind", "", "only results of the `KIND` (run, monitor, mem, import, replay...; replays of a recorded root are listed only with --kind replay)")
	cmd.Flags().IntVar(&q.Limit, "limit", 0, "at most `N` results (0: all)")
	cmdutil.AddJSONFlag(cmd, &asJSON)
	return cmd
}

// listBlock is how many rows of the list's table are aligned together.
const listBlock = 1000

// writeListJSON writes recs as the JSON array of ListItem that
// cmdutil.Factory.WriteJSON would print (two-space indent, HTML left
// unescaped, a final newline), byte for byte, but one item at a time into
// a buffered writer: the whole array is never held encoded in memory.
func writeListJSON(w io.Writer, recs []store.Record) error {
	lw := newListJSON(w)
	for _, r := range recs {
		if err := lw.add(r); err != nil {
			return err
		}
	}
	return lw.close()
}

// listJSON writes the array of writeListJSON one record at a time.
type listJSON struct {
	bw   *bufio.Writer
	item bytes.Buffer
	enc  *json.Encoder
	n    int
}

func newListJSON(w io.Writer) *listJSON {
	lw := &listJSON{bw: bufio.NewWriterSize(w, 64<<10)}
	lw.enc = json.NewEncoder(&lw.item)
	// Items sit one level deep in the array: every line after an item's
	// first is prefixed with the array's indent.
	lw.enc.SetIndent("  ", "  ")
	lw.enc.SetEscapeHTML(false)
	return lw
}

func (lw *listJSON) add(r store.Record) error {
	if lw.n == 0 {
		lw.bw.WriteByte('[')
	} else {
		lw.bw.WriteByte(',')
	}
	lw.n++
	lw.bw.WriteString("\n  ")
	lw.item.Reset()
	if err := lw.enc.Encode(ListItem{Heading: r.Heading(), Summary: r.Figures}); err != nil {
		return err
	}
	lw.bw.Write(bytes.TrimSuffix(lw.item.Bytes(), []byte("\n")))
	return nil
}

func (lw *listJSON) close() error {
	if lw.n == 0 {
		lw.bw.WriteString("[]\n")
	} else {
		lw.bw.WriteString("\n]\n")
	}
	return lw.bw.Flush()
}
