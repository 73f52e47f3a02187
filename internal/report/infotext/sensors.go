package infotext

import (
	"boardbench/internal/inventory"
	"boardbench/internal/textfmt"
)

func renderSensors(w *textfmt.Writer, in *inventory.Info) {}
