package infotext

import (
	"boardbench/internal/inventory"
	"boardbench/internal/textfmt"
)

func renderOS(w *textfmt.Writer, in *inventory.Info) {}
