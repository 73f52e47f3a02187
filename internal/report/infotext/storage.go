package infotext

import (
	"boardbench/internal/inventory"
	"boardbench/internal/textfmt"
)

func renderStorage(w *textfmt.Writer, in *inventory.Info) {}
