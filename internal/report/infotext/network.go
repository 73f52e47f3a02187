package infotext

import (
	"boardbench/internal/inventory"
	"boardbench/internal/textfmt"
)

func renderNetwork(w *textfmt.Writer, in *inventory.Info) {}
