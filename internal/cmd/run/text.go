package run

import (
	"io"

	"boardbench/internal/benchrun"
	"boardbench/internal/report/runtext"
)

// render writes the text report of a finished (or interrupted) run.
func render(w io.Writer, out *benchrun.Outcome, color bool) {
	runtext.Render(w, out.Result, color)
}
