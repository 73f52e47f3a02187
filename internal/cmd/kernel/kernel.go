// Package kernel implements `boardbench kernel`: the running kernel's
// version, build date and compiler, whether it is a vendor (BSP) kernel or
// close to mainline, whether its series is still maintained (from a table
// built into the binary, with the table's date) and how far its build is
// behind the newest release of its series.
package kernel

import (
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"boardbench/internal/cmdutil"
	"boardbench/internal/kernelinfo"
	"boardbench/internal/regfile"
	"boardbench/internal/textfmt"

	"github.com/spf13/cobra"
)

// NewCmd returns the kernel command.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	var root, tableFile string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "kernel [--json] [--root DIR] [--kernel-table FILE]",
		Short: "Judge the kernel: vendor or mainline, maintained or end-of-life, how far behind",
		Long: `Show the kernel's release, build date, compiler and build host, and judge it:
a vendor (BSP) kernel or one close to mainline (from the release string, the
build host and /proc/config.gz where present), whether kernel.org still
maintains its series, and how many months the build is behind the newest
release of its series. The longterm table is built into boardbench and dated;
without a network the answer is "as of" that date, and the view says how old
the table is. --kernel-table FILE judges by a newer table instead (format in
docs/kernel.md: "date", "mainline" and "longterm" lines).`,
		Example: `  boardbench kernel
  boardbench kernel --json
  boardbench kernel --root ./rock5b-capture
  boardbench kernel --kernel-table kernel-table.txt`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			tbl, err := LoadTable(tableFile)
			if err != nil {
				return err
			}
			h, err := f.NewHost(root)
			if err != nil {
				return err
			}
			now := time.Now()
			k := kernelinfo.CollectWith(h, now, &tbl)
			if asJSON {
				return f.WriteJSON(k)
			}
			Render(f, k, tbl, now)
			return f.IO.OutErr()
		},
	}
	cmdutil.AddRootFlag(cmd, &root)
	cmdutil.AddJSONFlag(cmd, &asJSON)
	cmd.Flags().StringVar(&tableFile, "kernel-table", "", "judge by the longterm table in `FILE` instead of the built-in one (format: docs/kernel.md)")
	return cmd
}

// maxTableBytes bounds a --kernel-table file (real ones are under 2 KiB).
const maxTableBytes = 64 << 10

// LoadTable returns the table of --kernel-table FILE, or the built-in one
// when path is "". A file that cannot be read (missing, not a regular
// file, over 64 KiB) or parsed is bad input (exit 2), one line naming the
// file and the line.
func LoadTable(path string) (kernelinfo.Table, error) {
	if path == "" {
		return kernelinfo.Builtin(), nil
	}
	b, err := regfile.Read(path, maxTableBytes, regfile.Follow)
	if err != nil {
		return kernelinfo.Table{}, cmdutil.Usagef("--kernel-table: %v", err)
	}
	tbl, err := kernelinfo.ParseTable(b, path)
	if err != nil {
		return kernelinfo.Table{}, cmdutil.Usagef("--kernel-table: %v", err)
	}
	return tbl, nil
}

// Render writes the text view of a kernel judgement: the facts, with the
// evidence of the tree's judgement under "tree", then the longterm table
// tbl, saying where it comes from and how old it is at now.
func Render(f *cmdutil.Factory, k kernelinfo.Info, tbl kernelinfo.Table, now time.Time) {
	w := textfmt.New(f.IO.Out, f.IO.ColorEnabled())
	w.Section("Kernel")
	build := "unknown"
	if k.BuildDate != nil {
		build = k.BuildDate.Format("2006-01-02")
	}
	kind := k.Kind
	if k.Tree != "" {
		kind += " (" + k.Tree + ")"
	}
	if k.Distribution != "" {
		kind += ", built and maintained by " + k.Distribution
	}
	if k.FarBehind {
		kind += "; a vendor kernel far behind mainline"
	}
	var because []string
	for _, e := range k.KindEvidence {
		because = append(because, "because "+e)
	}
	kv(f.IO.Out, []kvLine{
		{"release", textfmt.OrUnknown(k.Release), nil},
		{"build", textfmt.OrUnknown(k.Build), nil},
		{"build date", build, nil},
		{"compiler", textfmt.OrUnknown(k.Compiler), nil},
		{"build host", textfmt.OrUnknown(k.BuildHost), nil},
		{"tree", kind, because},
		{"series", textfmt.OrUnknown(k.Series), nil},
		{"maintenance", k.Status, nil},
		{"age", textfmt.OrUnknown(k.Age()), nil},
	})
	for _, n := range k.Notes {
		w.Line("note: %s", n)
	}
	w.Section(fmt.Sprintf("Longterm series (%s table of %s, %s; newest mainline then: %s)",
		tbl.Source, tbl.Date.Format("2006-01-02"), tbl.Age(now), tbl.NewestMainline))
	t := textfmt.NewTable("series", "released", "end of life", "")
	for _, s := range tbl.Longterm {
		mark := ""
		if s.Version == k.Series {
			mark = "← this kernel"
		}
		t.Row(s.Version, s.Released.Format("2006-01-02"), s.EOL.Format("Jan 2006"), mark)
	}
	w.Table(t)
}

// kvLine is one "key: value" line of the kernel view, with further
// paragraphs shown under the value.
type kvLine struct {
	key, value string
	more       []string
}

// kv writes aligned "key: value" lines within textfmt.MaxWidth, each
// further paragraph starting on its own line under the value.
func kv(out io.Writer, lines []kvLine) {
	width := 0
	for _, l := range lines {
		width = max(width, utf8.RuneCountInString(l.key))
	}
	hang := strings.Repeat(" ", width+4)
	for _, l := range lines {
		first := "  " + l.key + ":" + strings.Repeat(" ", width-utf8.RuneCountInString(l.key)) + " "
		fmt.Fprint(out, textfmt.Indent(l.value, first, hang, textfmt.MaxWidth))
		for _, m := range l.more {
			fmt.Fprint(out, textfmt.Indent(m, hang, hang+"  ", textfmt.MaxWidth))
		}
	}
}
