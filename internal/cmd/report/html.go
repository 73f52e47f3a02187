//go:build !board

package report

import (
	"io"

	"boardbench/internal/cmdutil"
	"boardbench/internal/outfile"
	"boardbench/internal/serve/page"
)

// writeHTML writes the result arg names (a file or a store id) as one
// self-contained HTML file to out ("-" or "" for standard output).
func writeHTML(f *cmdutil.Factory, src *sources, arg, out string) error {
	l, err := src.loaded(arg)
	if err != nil {
		return err
	}
	write := func(w io.Writer) error { return page.WriteStandaloneTagged(src.ctx, w, l.Result, l.Tags, page.Charts) }
	if out == "" || outfile.IsStdout(out) {
		return write(f.IO.Out)
	}
	if err := outfile.Check(out); err != nil {
		return cmdutil.Usagef("-o %s: %v", out, err)
	}
	return outfile.Write(out, write)
}
