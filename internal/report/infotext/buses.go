package infotext

import (
	"boardbench/internal/inventory"
	"boardbench/internal/textfmt"
)

func renderBuses(w *textfmt.Writer, in *inventory.Info) {}
