package infotext

import (
	"boardbench/internal/inventory"
	"boardbench/internal/textfmt"
)

func renderBoard(w *textfmt.Writer, in *inventory.Info) {}
