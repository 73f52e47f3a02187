// Package kernel implements `boardbench kernel`: the running kernel's
// version, build date and compiler, whether it is a vendor (BSP) kernel or
// close to mainline, whether its series is still maintained (from a table
// built into the binary, with the table's date) and how far its build is
// behind the newest release of its series.
package kernel

import (
	"fmt"
	"time"

	"boardbench/internal/cmdutil"
	"boardbench/internal/kernelinfo"
	"boardbench/internal/textfmt"

	"github.com/spf13/cobra"
)

// NewCmd returns the kernel command.
func NewCmd(f *cmdutil.Factory) *cobra.Command {
	var root string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "kernel [--json] [--root DIR]",
		Short: "Judge the kernel: vendor or mainline, maintained or end-of-life, how far behind",
		Long: `Show the kernel's release, build date, compiler and build host, and judge it:
a vendor (BSP) kernel or one close to mainline (from the release string, the
build host and /proc/config.gz where present), whether kernel.org still
maintains its series, and how many months the build is behind the newest
release of its series. The longterm table is built into boardbench and dated;
without a network the answer is "as of" that date.`,
		Example: `  boardbench kernel
  boardbench kernel --json
  boardbench kernel --root ./rock5b-capture`,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			h, err := f.NewHost(root)
			if err != nil {
				return err
			}
			k := kernelinfo.Collect(h, time.Now())
			if asJSON {
				return f.WriteJSON(k)
			}
			Render(f, k)
			return f.IO.OutErr()
		},
	}
	cmdutil.AddRootFlag(cmd, &root)
	cmdutil.AddJSONFlag(cmd, &asJSON)
	return cmd
}

// Render writes the text view of a kernel judgement.
func Render(f *cmdutil.Factory, k kernelinfo.Info) {
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
	behind := "unknown"
	if k.MonthsBehind != nil {
		behind = textfmt.Plural(*k.MonthsBehind, "month") + " behind the newest release of its series"
	}
	w.KV(
		[2]string{"release", textfmt.OrUnknown(k.Release)},
		[2]string{"build", textfmt.OrUnknown(k.Build)},
		[2]string{"build date", build},
		[2]string{"compiler", textfmt.OrUnknown(k.Compiler)},
		[2]string{"build host", textfmt.OrUnknown(k.BuildHost)},
		[2]string{"tree", kind},
		[2]string{"series", textfmt.OrUnknown(k.Series)},
		[2]string{"maintenance", k.Status},
		[2]string{"age", behind},
	)
	if k.FarBehind {
		w.Line("a vendor kernel far behind mainline")
	}
	for _, e := range k.KindEvidence {
		w.Line("%s", textfmt.Indent(e, "  because ", "          ", textfmt.MaxWidth))
	}
	for _, n := range k.Notes {
		w.Line("note: %s", n)
	}
	w.Section(fmt.Sprintf("Longterm series (table of %s)", kernelinfo.TableDate.Format("2006-01-02")))
	t := textfmt.NewTable("series", "released", "end of life", "")
	for _, s := range kernelinfo.Longterm {
		mark := ""
		if s.Version == k.Series {
			mark = "← this kernel"
		}
		t.Row(s.Version, s.Released.Format("2006-01-02"), s.EOL.Format("Jan 2006"), mark)
	}
	w.Table(t)
}
