package infotext

import (
	"boardbench/internal/inventory"
	"boardbench/internal/textfmt"
)

func renderMemory(w *textfmt.Writer, in *inventory.Info) {}
