// Package importcmd implements `boardbench import FILE|DIR...`: it reads
// benchmark result logs written by the sbc-bench shell script and saves
// each as a boardbench result of kind "import" to the results store
// (docs/import.md).
package importcmd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"boardbench/internal/cmdstore"
	"boardbench/internal/cmdutil"
	"boardbench/internal/regfile"
	"boardbench/internal/result"
	"boardbench/internal/sbcimport"
	"boardbench/internal/store"

	"github.com/spf13/cobra"
)

// The statuses of a file.
const (
	StatusImported  = "imported"
	StatusDuplicate = "duplicate"
	StatusRejected  = "rejected"
)

// Outcome is what happened to one file: the line `import --json` prints.
type Outcome struct {
	File   string `json:"file"`
	ID     string `json:"id,omitempty"`
	Status string `json:"status"`
	// Reason says why a file was rejected.
	Reason string `json:"reason,omitempty"`
}

// RejectedError reports that some files were not imported (exit status 2:
// bad input); their lines were printed already.
type RejectedError struct{ Rejected, Total int }

func (e *RejectedError) Error() string {
	return fmt.Sprintf("%d of %s rejected", e.Rejected, plural(e.Total, "file"))
}

// ExitCode is 2: the rejected files are bad input.
func (e *RejectedError) ExitCode() int { return 2 }

func plural(n int, s string) string {
	if n == 1 {
		return "1 " + s
	}
	return fmt.Sprintf("%d %ss", n, s)
}

// NewCmd returns the import command.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "import FILE|DIR...",
		Short: "Bring sbc-bench result logs into the results store",
		Long: `Read result logs written by the sbc-bench shell script (every version from
0.4 to 0.9.x, as the script wrote them) and save each one to the results store
as a boardbench result of kind "import": the machine the log describes
(device, kernel, distribution, architecture, CPU topology), its clock checks,
tinymembench and ramlat tables, 7-Zip runs, openssl tables, monitor lines,
throttling statistics and validation warnings, the summary figures derived as
the log's own results-table row, and the original text.

A DIR imports every regular file directly in it, in name order. The ID of an
imported result derives from the log's text: importing the same log again
reports it as a duplicate and changes nothing.

One line per file: imported (with the result's ID), duplicate, or rejected
with the reason (a file that is not a sbc-bench result log, or cannot be
read). --json prints one JSON object per line instead:
{"file", "id", "status", "reason"}. Exit status 2 when a file was rejected,
1 when the store failed.`,
		Example: `  boardbench import sbc-bench-results.txt
  boardbench import --json ~/logs/
  boardbench import --store lab.db a.txt b.txt`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return cmdutil.Usagef("import takes one or more log FILEs or DIRs")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			inputs := expand(args)
			st, err := cmdstore.Create(cmd.Context(), f.Store)
			if err != nil {
				return err
			}
			defer st.Close()
			enc := json.NewEncoder(f.IO.Out)
			emit := func(o Outcome) error {
				if asJSON {
					return enc.Encode(o)
				}
				_, err := fmt.Fprintln(f.IO.Out, textLine(o))
				return err
			}
			counts := map[string]int{}
			total := 0
			for _, in := range inputs {
				o := in.outcome
				if o == nil {
					got, err := ImportFile(cmd.Context(), st, in.path)
					if err != nil {
						return fmt.Errorf("%s: %w", in.path, err)
					}
					o = &got
				}
				counts[o.Status]++
				total++
				if err := emit(*o); err != nil {
					return err
				}
			}
			if !asJSON {
				fmt.Fprintf(f.IO.ErrOut, "%d imported, %d duplicate, %d rejected; store: %s\n",
					counts[StatusImported], counts[StatusDuplicate], counts[StatusRejected], orDefault(store.Where(st)))
			}
			if err := f.IO.OutErr(); err != nil {
				return err
			}
			if n := counts[StatusRejected]; n > 0 {
				return &RejectedError{Rejected: n, Total: total}
			}
			return nil
		},
	}
	cmdutil.AddJSONFlag(cmd, &asJSON)
	return cmd
}

func orDefault(s string) string {
	if s == "" {
		return "(not named)"
	}
	return s
}

func textLine(o Outcome) string {
	switch o.Status {
	case StatusImported:
		return fmt.Sprintf("imported   %s  %s", o.ID, o.File)
	case StatusDuplicate:
		return fmt.Sprintf("duplicate  %s  %s (already in the store)", o.ID, o.File)
	}
	return fmt.Sprintf("rejected   %s: %s", o.File, o.Reason)
}

// input is one file to import, or an argument already rejected.
type input struct {
	path    string
	outcome *Outcome
}

// expand turns the arguments into files, in order: a DIR gives its regular
// files (not those starting with a dot), sorted by name. An argument that
// cannot be read is rejected on the spot.
func expand(args []string) []input {
	var out []input
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			out = append(out, input{outcome: &Outcome{File: a, Status: StatusRejected, Reason: shortErr(err)}})
			continue
		}
		if !fi.IsDir() {
			out = append(out, input{path: a})
			continue
		}
		entries, err := os.ReadDir(a)
		if err != nil {
			out = append(out, input{outcome: &Outcome{File: a, Status: StatusRejected, Reason: shortErr(err)}})
			continue
		}
		var names []string
		for _, e := range entries {
			if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") {
				names = append(names, e.Name())
			}
		}
		sort.Strings(names)
		if len(names) == 0 {
			out = append(out, input{outcome: &Outcome{File: a, Status: StatusRejected, Reason: "directory holds no files"}})
		}
		for _, n := range names {
			out = append(out, input{path: filepath.Join(a, n)})
		}
	}
	return out
}

// ImportFile reads one log and saves it to st. A file that cannot be read
// or is not a log is an Outcome with status rejected, not an error; the
// error is the store's.
func ImportFile(ctx context.Context, st store.Store, path string) (Outcome, error) {
	o := Outcome{File: path}
	data, err := regfile.Read(path, sbcimport.MaxLogBytes, regfile.Follow)
	if err != nil {
		o.Status, o.Reason = StatusRejected, shortErr(err)
		return o, nil
	}
	r, err := Convert(data, filepath.Base(path))
	if err != nil {
		o.Status, o.Reason = StatusRejected, err.Error()
		return o, nil
	}
	doc, err := result.Marshal(r)
	if err != nil {
		return o, err
	}
	id, created, err := st.Put(ctx, doc)
	if err != nil {
		return o, err
	}
	o.ID, o.Status = id, StatusImported
	if !created {
		o.Status = StatusDuplicate
	}
	return o, nil
}

// Convert turns the text of a log into a result; file names it in the
// result. A text that is not a log gives an error saying so.
func Convert(data []byte, file string) (*result.Result, error) {
	l, err := sbcimport.Parse(data)
	if err != nil {
		return nil, err
	}
	return l.Result(file), nil
}

// shortErr drops the path an *os.PathError repeats.
func shortErr(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}
