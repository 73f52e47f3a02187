package runtext

import (
	"boardbench/internal/reference"
	"boardbench/internal/result"
	"boardbench/internal/textfmt"
)

// renderReference places the headline figures among the published results
// of the same SoC (package reference).
func renderReference(w *textfmt.Writer, r *result.Result) {
	if !reference.Applies(r) {
		return
	}
	set, err := reference.Embedded()
	if err != nil {
		w.Section("Among published results")
		w.Line("not placed: %v", err)
		return
	}
	reference.RenderPlacement(w, set.Place(r))
}
