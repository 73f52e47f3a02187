package infotext

import (
	"boardbench/internal/inventory"
	"boardbench/internal/textfmt"
)

func renderCPU(w *textfmt.Writer, in *inventory.Info) {}
